// OSRootSecrets.secrets.talos.dev (`os`): the Talos API CA, extra SANs and the trustd join token.
import { defineResource, type ResourceOf } from '../../src/cosi/resource/typed.js';
import { type CertificateAndKey, codec, f, type PEMCertificate } from './fields.js';
import { SECRETS_NAMESPACE } from './namespace.js';

export const OS_ROOT_ID = 'os';

/** OSRootSpec: issuingCA only where the key is present (control plane); acceptedCAs include it. */
export interface OSRootSpec {
  issuingCA: CertificateAndKey | null;
  acceptedCAs: PEMCertificate[];
  certSANIPs: string[];
  certSANDNSNames: string[];
  token: string;
}

export const OSRoot = defineResource<OSRootSpec>({
  type: 'OSRootSecrets.secrets.talos.dev',
  defaultNamespace: SECRETS_NAMESPACE,
  sensitivity: 'sensitive',
  ...codec<OSRootSpec>({
    issuingCA: f('issuingCA', 1, 'pair'),
    acceptedCAs: f('acceptedCAs', 5, 'certs'),
    certSANIPs: f('certSANIPs', 2, 'ips'),
    certSANDNSNames: f('certSANDNSNames', 3, 'strings'),
    token: f('token', 4, 'string'),
  }),
});
export type OSRoot = ResourceOf<typeof OSRoot>;
