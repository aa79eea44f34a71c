// KubernetesDynamicCerts.secrets.talos.dev (`k8s-dynamic-certs`): certificates the API server reloads
// without a restart.
import { defineResource, type ResourceOf } from '../../src/cosi/resource/typed.js';
import { type CertificateAndKey, codec, f } from './fields.js';
import { SECRETS_NAMESPACE } from './namespace.js';

export const KUBERNETES_DYNAMIC_CERTS_ID = 'k8s-dynamic-certs';

/** apiServer's crt carries the CA chain after the leaf, as upstream serves it. */
export interface KubernetesDynamicCertsSpec {
  apiServer: CertificateAndKey | null;
  apiServerKubeletClient: CertificateAndKey | null;
  frontProxy: CertificateAndKey | null;
}

export const KubernetesDynamicCerts = defineResource<KubernetesDynamicCertsSpec>({
  type: 'KubernetesDynamicCerts.secrets.talos.dev',
  defaultNamespace: SECRETS_NAMESPACE,
  sensitivity: 'sensitive',
  ...codec<KubernetesDynamicCertsSpec>({
    apiServer: f('apiServer', 1, 'pair'),
    apiServerKubeletClient: f('apiServerKubeletClient', 2, 'pair'),
    frontProxy: f('frontProxy', 3, 'pair'),
  }),
});
export type KubernetesDynamicCerts = ResourceOf<typeof KubernetesDynamicCerts>;
