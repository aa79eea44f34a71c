// EtcdBootstraps.etcd.keel.dev (`etcd`): the Bootstrap call's request that this node start a new etcd
// cluster (optionally from an uploaded snapshot) instead of joining one. Keel's own type: upstream reloads
// its etcd service with a bootstrap flag; here the request is data the etcd service controller reads, so
// the change restarts etcd like any other. It only matters while the data directory is empty.
import { defineResource, type ResourceOf } from '../../src/cosi/resource/typed.js';
import { bool, obj } from '../network/yaml-read.js';
import { ETCD_NAMESPACE } from './config.js';

export const ETCD_BOOTSTRAP_ID = 'etcd';

export interface EtcdBootstrapSpec {
  /** restore the snapshot uploaded through EtcdRecover first */
  recoverFromSnapshot: boolean;
  /** skip the snapshot's hash check (a copy of the database file rather than a snapshot stream) */
  recoverSkipHashCheck: boolean;
}

export const EtcdBootstrap = defineResource<EtcdBootstrapSpec>({
  type: 'EtcdBootstraps.etcd.keel.dev',
  defaultNamespace: ETCD_NAMESPACE,
  empty: () => ({ recoverFromSnapshot: false, recoverSkipHashCheck: false }),
  fromYAML: (v) => {
    const o = obj(v);
    return {
      recoverFromSnapshot: bool(o.recoverFromSnapshot),
      recoverSkipHashCheck: bool(o.recoverSkipHashCheck),
    };
  },
});
export type EtcdBootstrap = ResourceOf<typeof EtcdBootstrap>;
