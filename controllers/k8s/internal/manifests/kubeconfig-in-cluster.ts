// 11-kube-config-in-cluster: a kubeconfig for pods on the host network (kube-proxy) that reaches the API
// server at the configured URL with the pod's service account token. Its text is what upstream's
// client-go writes for that config.
import { configMap, KUBE_SYSTEM } from './objects.js';
import type { ConfigMap } from './types.js';

const SA_DIR = '/var/run/secrets/kubernetes.io/serviceaccount';

/** inClusterKubeconfig is the kubeconfig text naming `server`. */
export const inClusterKubeconfig = (server: string): string => `apiVersion: v1
clusters:
- cluster:
    certificate-authority: ${SA_DIR}/ca.crt
    server: ${server}
  name: local
contexts:
- context:
    cluster: local
    user: service-account
  name: local
current-context: local
kind: Config
users:
- name: service-account
  user:
    tokenFile: ${SA_DIR}/token
`;

export const KUBECONFIG_IN_CLUSTER = 'kubeconfig-in-cluster';

export const kubeconfigInCluster = (server: string): ConfigMap =>
  configMap(
    { name: KUBECONFIG_IN_CLUSTER, namespace: KUBE_SYSTEM },
    { kubeconfig: inClusterKubeconfig(server) },
  );
