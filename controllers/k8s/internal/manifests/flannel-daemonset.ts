// 05-flannel's DaemonSet: flanneld on every Linux node's host network, its CNI config installed by an init
// container, the API server reached through KubePrism when it runs (the Service IP needs the CNI flannel
// is), and kube-network-policies beside it when network policies are on.
import type { BootstrapManifestsConfigSpec } from '../../../../resources/k8s/index.js';
import { FLANNEL, FLANNEL_CONFIG_MAP, FLANNEL_LABELS } from './flannel.js';
import { fieldEnv, KUBE_SYSTEM, TOLERATE_ALL } from './objects.js';
import type { Container, DaemonSet, EnvVar, Volume } from './types.js';

type FlannelSettings = Pick<
  BootstrapManifestsConfigSpec,
  | 'flannelImage'
  | 'flannelExtraArgs'
  | 'flannelKubeServiceHost'
  | 'flannelKubeServicePort'
  | 'flannelKubeNetworkPoliciesEnabled'
  | 'flannelKubeNetworkPoliciesImage'
>;

const REQUESTS = { cpu: '100m', memory: '50Mi' };

function flannelEnv(cfg: FlannelSettings): EnvVar[] {
  return [
    fieldEnv('POD_NAME', 'metadata.name'),
    fieldEnv('POD_NAMESPACE', 'metadata.namespace'),
    { name: 'EVENT_QUEUE_DEPTH', value: '5000' },
    { name: 'CONT_WHEN_CACHE_NOT_READY', value: 'false' },
    ...(cfg.flannelKubeServiceHost
      ? [{ name: 'KUBERNETES_SERVICE_HOST', value: cfg.flannelKubeServiceHost }]
      : []),
    ...(cfg.flannelKubeServicePort
      ? [{ name: 'KUBERNETES_SERVICE_PORT', value: cfg.flannelKubeServicePort }]
      : []),
  ];
}

const networkPolicies = (image: string): Container => ({
  name: 'kube-network-policies',
  image,
  command: ['/bin/netpol', '--hostname-override=$(MY_NODE_NAME)', '--v=2'],
  env: [fieldEnv('MY_NODE_NAME', 'spec.nodeName')],
  resources: { requests: { ...REQUESTS } },
  securityContext: { capabilities: { add: ['NET_ADMIN'] }, privileged: true },
  volumeMounts: [{ name: 'lib-modules', mountPath: '/lib/modules', readOnly: true }],
});

export function flannelDaemonSet(cfg: FlannelSettings): DaemonSet {
  const policies = cfg.flannelKubeNetworkPoliciesEnabled;
  const volumes: Volume[] = [
    { name: 'run', hostPath: { path: '/run/flannel' } },
    { name: 'cni', hostPath: { path: '/etc/cni/net.d' } },
    { name: 'flannel-cfg', configMap: { name: FLANNEL_CONFIG_MAP } },
    ...(policies ? [{ name: 'lib-modules', hostPath: { path: '/usr/lib/modules' } }] : []),
  ];
  const flanneld: Container = {
    name: 'kube-flannel',
    image: cfg.flannelImage,
    command: ['/opt/bin/flanneld'],
    args: ['--ip-masq', '--kube-subnet-mgr', ...cfg.flannelExtraArgs],
    env: flannelEnv(cfg),
    resources: { requests: { ...REQUESTS } },
    securityContext: { capabilities: { add: ['NET_ADMIN', 'NET_RAW'] }, privileged: false },
    volumeMounts: [
      { name: 'run', mountPath: '/run/flannel' },
      { name: 'flannel-cfg', mountPath: '/etc/kube-flannel/' },
    ],
  };
  return {
    apiVersion: 'apps/v1',
    kind: 'DaemonSet',
    metadata: { name: 'kube-flannel', namespace: KUBE_SYSTEM, labels: { ...FLANNEL_LABELS } },
    spec: {
      selector: { matchLabels: { ...FLANNEL_LABELS } },
      template: {
        metadata: { labels: { ...FLANNEL_LABELS } },
        spec: {
          affinity: {
            nodeAffinity: {
              requiredDuringSchedulingIgnoredDuringExecution: {
                nodeSelectorTerms: [
                  { matchExpressions: [{ key: 'kubernetes.io/os', operator: 'In', values: ['linux'] }] },
                ],
              },
            },
          },
          containers: [flanneld, ...(policies ? [networkPolicies(cfg.flannelKubeNetworkPoliciesImage)] : [])],
          initContainers: [
            {
              name: 'install-config',
              image: cfg.flannelImage,
              // flannel's own copier: the image carries no shell tools (upstream's is Alpine and runs cp)
              command: ['/opt/bin/install-conf'],
              args: ['/etc/kube-flannel/cni-conf.json', '/etc/cni/net.d/10-flannel.conflist'],
              resources: {},
              volumeMounts: [
                { name: 'cni', mountPath: '/etc/cni/net.d' },
                { name: 'flannel-cfg', mountPath: '/etc/kube-flannel/' },
              ],
            },
          ],
          hostNetwork: true,
          priorityClassName: 'system-node-critical',
          serviceAccountName: FLANNEL,
          tolerations: TOLERATE_ALL.map((t) => ({ ...t })),
          volumes,
        },
      },
      updateStrategy: {},
    },
  };
}
