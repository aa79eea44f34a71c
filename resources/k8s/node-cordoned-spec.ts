// NodeCordonedSpecs.k8s.talos.dev (`k8s`, `cordoned`): present while the node should be unschedulable
// (shutting down, upgrading, resetting); its spec is empty, as upstream's. Sensitive as upstream's.
import { defineResource, type ResourceOf } from '../../src/cosi/resource/typed.js';
import { K8S_NAMESPACE } from './namespace.js';

export const NODE_CORDONED_ID = 'cordoned';

/** NodeCordonedSpecSpec carries nothing: the resource's presence is the intent. */
export type NodeCordonedSpecSpec = Record<string, never>;

export const NodeCordonedSpec = defineResource<NodeCordonedSpecSpec>({
  type: 'NodeCordonedSpecs.k8s.talos.dev',
  defaultNamespace: K8S_NAMESPACE,
  sensitivity: 'sensitive',
  empty: () => ({}),
  copy: () => ({}),
  equal: () => true,
  // an empty message: the proto spec is zero bytes either way
  proto: {},
  fromProto: () => ({}),
  fromYAML: () => ({}),
});
export type NodeCordonedSpec = ResourceOf<typeof NodeCordonedSpec>;
