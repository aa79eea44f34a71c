// KubernetesSecrets.secrets.talos.dev (`k8s-certs`): kubeconfigs whose change restarts control plane pods.
import { defineResource, type ResourceOf } from '../../src/cosi/resource/typed.js';
import { codec, f } from './fields.js';
import { SECRETS_NAMESPACE } from './namespace.js';

export const KUBERNETES_ID = 'k8s-certs';

export interface KubernetesCertsSpec {
  schedulerKubeconfig: string;
  controllerManagerKubeconfig: string;
  /** admin access through the localhost endpoint */
  localhostAdminKubeconfig: string;
  adminKubeconfig: string;
}

export const Kubernetes = defineResource<KubernetesCertsSpec>({
  type: 'KubernetesSecrets.secrets.talos.dev',
  defaultNamespace: SECRETS_NAMESPACE,
  sensitivity: 'sensitive',
  ...codec<KubernetesCertsSpec>({
    schedulerKubeconfig: f('schedulerKubeconfig', 4, 'string'),
    controllerManagerKubeconfig: f('controllerManagerKubeconfig', 5, 'string'),
    localhostAdminKubeconfig: f('localhostAdminKubeconfig', 6, 'string'),
    adminKubeconfig: f('adminKubeconfig', 7, 'string'),
  }),
});
export type Kubernetes = ResourceOf<typeof Kubernetes>;
