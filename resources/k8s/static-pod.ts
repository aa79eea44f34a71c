// StaticPods.kubernetes.talos.dev: one static pod (a v1 Pod object) the kubelet runs from the static pod
// server; its YAML is the pod itself, as upstream's.
import { defineResource, type ResourceOf } from '../../src/cosi/resource/typed.js';
import { K8S_NAMESPACE } from './namespace.js';

export interface StaticPodSpec {
  pod: Record<string, unknown>;
}

export const StaticPod = defineResource<StaticPodSpec>({
  type: 'StaticPods.kubernetes.talos.dev',
  defaultNamespace: K8S_NAMESPACE,
  empty: () => ({ pod: {} }),
  copy: (s) => ({ pod: structuredClone(s.pod) }),
  toYAML: (s) => s.pod,
  fromYAML: (v) => ({ pod: v !== null && typeof v === 'object' ? (v as Record<string, unknown>) : {} }),
});
export type StaticPod = ResourceOf<typeof StaticPod>;
