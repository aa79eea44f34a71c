// TrustdCertificates.secrets.talos.dev (`trustd`): trustd's serving certificate and trusted CAs.
import { defineResource, type ResourceOf } from '../../src/cosi/resource/typed.js';
import { type CertificateAndKey, codec, f, type PEMCertificate } from './fields.js';
import { SECRETS_NAMESPACE } from './namespace.js';

export const TRUSTD_ID = 'trustd';

export interface TrustdCertsSpec {
  acceptedCAs: PEMCertificate[];
  server: CertificateAndKey | null;
}

export const Trustd = defineResource<TrustdCertsSpec>({
  type: 'TrustdCertificates.secrets.talos.dev',
  defaultNamespace: SECRETS_NAMESPACE,
  sensitivity: 'sensitive',
  ...codec<TrustdCertsSpec>({
    acceptedCAs: f('acceptedCAs', 3, 'certs'),
    server: f('server', 2, 'pair'),
  }),
});
export type Trustd = ResourceOf<typeof Trustd>;
