// EtcdSecrets.secrets.talos.dev (`etcd`): etcd's server, peer and client certificates.
import { defineResource, type ResourceOf } from '../../src/cosi/resource/typed.js';
import { type CertificateAndKey, codec, f } from './fields.js';
import { SECRETS_NAMESPACE } from './namespace.js';

export const ETCD_ID = 'etcd';

/** EtcdCertsSpec: etcdAdmin is Talos' own client (CN talos), etcdAPIServer kube-apiserver's. */
export interface EtcdCertsSpec {
  etcd: CertificateAndKey | null;
  etcdPeer: CertificateAndKey | null;
  etcdAdmin: CertificateAndKey | null;
  etcdAPIServer: CertificateAndKey | null;
}

export const Etcd = defineResource<EtcdCertsSpec>({
  type: 'EtcdSecrets.secrets.talos.dev',
  defaultNamespace: SECRETS_NAMESPACE,
  sensitivity: 'sensitive',
  ...codec<EtcdCertsSpec>({
    etcd: f('etcd', 1, 'pair'),
    etcdPeer: f('etcdPeer', 2, 'pair'),
    etcdAdmin: f('etcdAdmin', 3, 'pair'),
    etcdAPIServer: f('etcdAPIServer', 4, 'pair'),
  }),
});
export type Etcd = ResourceOf<typeof Etcd>;
