// StaticPodStatuses.kubernetes.talos.dev (`podstatus`): what the kubelet reports of one static pod (a v1
// PodStatus), with the id `<namespace>/<name>`. Its YAML is the status itself, and its protobuf upstream's
// StaticPodStatusSpec (a google.protobuf.Struct as field 1), as upstream's.
import { defineResource, type ResourceOf } from '../../src/cosi/resource/typed.js';
import { sortedKeys } from './manifest.js';
import { K8S_NAMESPACE } from './namespace.js';

export interface StaticPodStatusSpec {
  /** the pod's status as the kubelet's JSON has it (phase, conditions, containerStatuses, …) */
  podStatus: Record<string, unknown>;
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

export const StaticPodStatus = defineResource<StaticPodStatusSpec>({
  type: 'StaticPodStatuses.kubernetes.talos.dev',
  defaultNamespace: K8S_NAMESPACE,
  aliases: ['podstatus'],
  printColumns: [{ name: 'Ready', jsonPath: '{.conditions[?(@.type=="Ready")].status}' }],
  empty: () => ({ podStatus: {} }),
  copy: (s) => ({ podStatus: structuredClone(s.podStatus) }),
  proto: { podStatus: { no: 1, kind: 'struct' } },
  fromProto: (v) => ({ podStatus: isObject(v.podStatus) ? v.podStatus : {} }),
  // a Go map: its keys sorted as yaml.v3 writes them
  toYAML: (s) => sortedKeys(s.podStatus),
  fromYAML: (v) => ({ podStatus: isObject(v) ? v : {} }),
});
export type StaticPodStatus = ResourceOf<typeof StaticPodStatus>;
