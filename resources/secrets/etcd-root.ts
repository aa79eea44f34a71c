// EtcdRootSecrets.secrets.talos.dev (`etcd`): the etcd CA, on control plane nodes only.
import { defineResource, type ResourceOf } from '../../src/cosi/resource/typed.js';
import { type CertificateAndKey, codec, f } from './fields.js';
import { SECRETS_NAMESPACE } from './namespace.js';

export const ETCD_ROOT_ID = 'etcd';

export interface EtcdRootSpec {
  etcdCA: CertificateAndKey | null;
}

export const EtcdRoot = defineResource<EtcdRootSpec>({
  type: 'EtcdRootSecrets.secrets.talos.dev',
  defaultNamespace: SECRETS_NAMESPACE,
  sensitivity: 'sensitive',
  ...codec<EtcdRootSpec>({ etcdCA: f('etcdCA', 1, 'pair') }),
});
export type EtcdRoot = ResourceOf<typeof EtcdRoot>;
