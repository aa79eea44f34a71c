// KubeletSecrets.secrets.talos.dev (`kubelet`): what the kubelet needs to bootstrap into the cluster.
import { defineResource, type ResourceOf } from '../../src/cosi/resource/typed.js';
import { codec, f, type PEMCertificate } from './fields.js';
import { SECRETS_NAMESPACE } from './namespace.js';

export const KUBELET_ID = 'kubelet';

export interface KubeletSpec {
  endpoint: string | null;
  acceptedCAs: PEMCertificate[];
  bootstrapTokenID: string;
  bootstrapTokenSecret: string;
}

export const Kubelet = defineResource<KubeletSpec>({
  type: 'KubeletSecrets.secrets.talos.dev',
  defaultNamespace: SECRETS_NAMESPACE,
  sensitivity: 'sensitive',
  ...codec<KubeletSpec>({
    endpoint: f('endpoint', 1, 'url'),
    acceptedCAs: f('acceptedCAs', 5, 'certs'),
    bootstrapTokenID: f('bootstrapTokenID', 3, 'string'),
    bootstrapTokenSecret: f('bootstrapTokenSecret', 4, 'string'),
  }),
});
export type Kubelet = ResourceOf<typeof Kubelet>;
