// KubernetesRootSecrets.secrets.talos.dev (`k8s`): cluster identity, endpoints, CAs, service-account
// key and bootstrap token, on control plane nodes only.
import { defineResource, type ResourceOf } from '../../src/cosi/resource/typed.js';
import { type CertificateAndKey, codec, f, type PEMCertificate, type PEMEncodedKey } from './fields.js';
import { SECRETS_NAMESPACE } from './namespace.js';

export const KUBERNETES_ROOT_ID = 'k8s';

/** KubernetesRootSpec: URLs are held as their string form (upstream's common.URL full_path). */
export interface KubernetesRootSpec {
  name: string;
  endpoint: string | null;
  localEndpoint: string | null;
  certSANs: string[];
  apiServerIPs: string[];
  dnsDomain: string;
  issuingCA: CertificateAndKey | null;
  acceptedCAs: PEMCertificate[];
  serviceAccount: PEMEncodedKey | null;
  aggregatorCA: CertificateAndKey | null;
  aesCBCEncryptionSecret: string;
  bootstrapTokenID: string;
  bootstrapTokenSecret: string;
  secretboxEncryptionSecret: string;
}

export const KubernetesRoot = defineResource<KubernetesRootSpec>({
  type: 'KubernetesRootSecrets.secrets.talos.dev',
  defaultNamespace: SECRETS_NAMESPACE,
  sensitivity: 'sensitive',
  ...codec<KubernetesRootSpec>({
    name: f('name', 1, 'string'),
    endpoint: f('endpoint', 2, 'url'),
    localEndpoint: f('local_endpoint', 3, 'url'),
    certSANs: f('certSANs', 4, 'strings'),
    apiServerIPs: f('apiServerIPs', 14, 'ips'),
    dnsDomain: f('dnsDomain', 6, 'string'),
    issuingCA: f('issuingCA', 7, 'pair'),
    acceptedCAs: f('acceptedCAs', 15, 'certs'),
    serviceAccount: f('serviceAccount', 8, 'key'),
    aggregatorCA: f('aggregatorCA', 9, 'pair'),
    aesCBCEncryptionSecret: f('aesCBCEncryptionSecret', 10, 'string'),
    bootstrapTokenID: f('bootstrapTokenID', 11, 'string'),
    bootstrapTokenSecret: f('bootstrapTokenSecret', 12, 'string'),
    secretboxEncryptionSecret: f('secretboxEncryptionSecret', 13, 'string'),
  }),
});
export type KubernetesRoot = ResourceOf<typeof KubernetesRoot>;
