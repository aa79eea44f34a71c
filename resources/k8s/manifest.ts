// Manifests.kubernetes.talos.dev (controlplane): one bootstrap manifest, a list of Kubernetes objects the
// control plane applies to the cluster, its id ordering it (`00-…` first). Its YAML is upstream's: the list
// of objects itself, each object's keys sorted as upstream's encoder writes a map's.
import { defineResource, type ResourceOf } from '../../src/cosi/resource/typed.js';
import { K8S_CONTROL_PLANE_NAMESPACE } from './namespace.js';
import { compareYAMLKeys } from './yaml-key-order.js';

/** K8sObject is one Kubernetes object as plain data (apiVersion, kind, metadata, …). */
export type K8sObject = Record<string, unknown>;

export interface ManifestSpec {
  items: K8sObject[];
}

/** sortedKeys copies a value with every object's keys in the order upstream's YAML encoder writes a map's. */
export function sortedKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortedKeys);
  if (v === null || typeof v !== 'object') return v;
  const obj = v as Record<string, unknown>;
  return Object.fromEntries(
    Object.keys(obj)
      .sort(compareYAMLKeys)
      .map((k) => [k, sortedKeys(obj[k])]),
  );
}

const isObject = (v: unknown): v is K8sObject => v !== null && typeof v === 'object' && !Array.isArray(v);

export const Manifest = defineResource<ManifestSpec>({
  type: 'Manifests.kubernetes.talos.dev',
  defaultNamespace: K8S_CONTROL_PLANE_NAMESPACE,
  empty: () => ({ items: [] }),
  copy: (s) => ({ items: structuredClone(s.items) }),
  toYAML: (s) => s.items.map(sortedKeys),
  fromYAML: (v) => ({ items: Array.isArray(v) ? v.filter(isObject) : [] }),
});
export type Manifest = ResourceOf<typeof Manifest>;
