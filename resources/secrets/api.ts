// ApiCertificates.secrets.talos.dev (`api`): apid's serving and client certificates and trusted CAs.
import { defineResource, type ResourceOf } from '../../src/cosi/resource/typed.js';
import { type CertificateAndKey, codec, f, type PEMCertificate } from './fields.js';
import { SECRETS_NAMESPACE } from './namespace.js';

export const API_ID = 'api';

/** APICertsSpec: `client` exists on control plane nodes only; skipVerifyingClientCert in maintenance. */
export interface APICertsSpec {
  acceptedCAs: PEMCertificate[];
  client: CertificateAndKey | null;
  server: CertificateAndKey | null;
  skipVerifyingClientCert: boolean;
}

export const API = defineResource<APICertsSpec>({
  type: 'ApiCertificates.secrets.talos.dev',
  defaultNamespace: SECRETS_NAMESPACE,
  sensitivity: 'sensitive',
  ...codec<APICertsSpec>({
    acceptedCAs: f('acceptedCAs', 4, 'certs'),
    client: f('client', 2, 'pair'),
    server: f('server', 3, 'pair'),
    skipVerifyingClientCert: f('skipVerifyingClientCert', 5, 'bool'),
  }),
});
export type API = ResourceOf<typeof API>;
