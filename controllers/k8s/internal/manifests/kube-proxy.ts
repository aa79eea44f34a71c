// 10-kube-proxy: kube-proxy on every node's host network with the arguments the config resolved (proxy
// mode, pod ranges, extra arguments), reaching the API server through the in-cluster kubeconfig
// (kubeconfig-in-cluster.ts), and bound to the system role for proxies.
import type { BootstrapManifestsConfigSpec } from '../../../../resources/k8s/index.js';
import { KUBECONFIG_IN_CLUSTER } from './kubeconfig-in-cluster.js';
import {
  clusterRoleBinding,
  fieldEnv,
  KUBE_SYSTEM,
  serviceAccount,
  serviceAccountSubject,
  TOLERATE_ALL,
} from './objects.js';
import type { ClusterRoleBinding, DaemonSet, ServiceAccount } from './types.js';

const KUBE_PROXY = 'kube-proxy';
const LABELS = { tier: 'node', 'k8s-app': KUBE_PROXY };

export const kubeProxyDaemonSet = (
  cfg: Pick<BootstrapManifestsConfigSpec, 'proxyImage' | 'proxyArgs'>,
): DaemonSet => ({
  apiVersion: 'apps/v1',
  kind: 'DaemonSet',
  metadata: { name: KUBE_PROXY, namespace: KUBE_SYSTEM, labels: { ...LABELS } },
  spec: {
    selector: { matchLabels: { ...LABELS } },
    updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1 } },
    template: {
      metadata: { labels: { ...LABELS } },
      spec: {
        containers: [
          {
            name: KUBE_PROXY,
            image: cfg.proxyImage,
            command: ['/usr/local/bin/kube-proxy', ...cfg.proxyArgs],
            env: [fieldEnv('NODE_NAME', 'spec.nodeName'), fieldEnv('POD_IP', 'status.podIP')],
            resources: {},
            securityContext: { privileged: true },
            volumeMounts: [
              { name: 'lib-modules', mountPath: '/lib/modules', readOnly: true },
              { name: 'ssl-certs-host', mountPath: '/etc/ssl/certs', readOnly: true },
              { name: 'kubeconfig', mountPath: '/etc/kubernetes', readOnly: true },
            ],
          },
        ],
        hostNetwork: true,
        priorityClassName: 'system-cluster-critical',
        serviceAccountName: KUBE_PROXY,
        tolerations: TOLERATE_ALL.map((t) => ({ ...t })),
        volumes: [
          { name: 'lib-modules', hostPath: { path: '/usr/lib/modules' } },
          { name: 'ssl-certs-host', hostPath: { path: '/etc/ssl/certs' } },
          { name: 'kubeconfig', configMap: { name: KUBECONFIG_IN_CLUSTER } },
        ],
      },
    },
  },
});

export const kubeProxyServiceAccount = (): ServiceAccount =>
  serviceAccount({ name: KUBE_PROXY, namespace: KUBE_SYSTEM });

export const kubeProxyClusterRoleBinding = (): ClusterRoleBinding =>
  clusterRoleBinding({ name: KUBE_PROXY }, 'system:node-proxier', [serviceAccountSubject(KUBE_PROXY)]);
