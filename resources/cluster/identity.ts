// Identities.cluster.talos.dev: the node's identity as a cluster member, a random id made once and kept on
// STATE, so it survives reboots and goes with a wipe of STATE.
import { defineResource, type ResourceOf } from '../../src/cosi/resource/typed.js';

export const CLUSTER_NAMESPACE = 'cluster';
/** the id of the local node's identity */
export const LOCAL_IDENTITY = 'local';

/** IdentitySpec holds the node's random id. */
export interface IdentitySpec {
  nodeId: string;
}

export const Identity = defineResource<IdentitySpec>({
  type: 'Identities.cluster.talos.dev',
  defaultNamespace: CLUSTER_NAMESPACE,
  printColumns: [{ name: 'ID', jsonPath: '{.nodeId}' }],
  empty: () => ({ nodeId: '' }),
  copy: (s) => ({ nodeId: s.nodeId }),
  equal: (a, b) => a.nodeId === b.nodeId,
  proto: { nodeId: { no: 1, kind: 'string' } },
  fromProto: (v) => ({ nodeId: String(v.nodeId ?? '') }),
});
export type Identity = ResourceOf<typeof Identity>;
