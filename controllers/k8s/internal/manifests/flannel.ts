// 05-flannel: flannel's RBAC (network policies' too when kube-network-policies runs beside it), its
// service account, and its config map — the CNI conflist it installs and net-conf.json, the pod ranges
// over VXLAN. The DaemonSet is flannel-daemonset.ts.
import type { BootstrapManifestsConfigSpec } from '../../../../resources/k8s/index.js';
import {
  clusterRole,
  clusterRoleBinding,
  configMap,
  KUBE_SYSTEM,
  serviceAccount,
  serviceAccountSubject,
} from './objects.js';
import type { ClusterRole, ClusterRoleBinding, ConfigMap, PolicyRule, ServiceAccount } from './types.js';

export const FLANNEL = 'flannel';
export const FLANNEL_CONFIG_MAP = 'kube-flannel-cfg';
export const FLANNEL_LABELS = { 'k8s-app': FLANNEL, tier: 'node' };

const NETWORK_POLICY_RULES: PolicyRule[] = [
  { apiGroups: ['networking.k8s.io'], resources: ['networkpolicies'], verbs: ['list', 'watch'] },
  {
    apiGroups: ['policy.networking.k8s.io'],
    resources: ['adminnetworkpolicies', 'baselineadminnetworkpolicies'],
    verbs: ['list', 'watch'],
  },
];

export const flannelClusterRole = (
  cfg: Pick<BootstrapManifestsConfigSpec, 'flannelKubeNetworkPoliciesEnabled'>,
): ClusterRole =>
  clusterRole({ name: FLANNEL, labels: { 'k8s-app': FLANNEL } }, [
    { apiGroups: [''], resources: ['pods', 'nodes', 'namespaces'], verbs: ['get', 'list', 'watch'] },
    { apiGroups: [''], resources: ['nodes/status'], verbs: ['patch'] },
    ...(cfg.flannelKubeNetworkPoliciesEnabled ? NETWORK_POLICY_RULES : []),
  ]);

export const flannelClusterRoleBinding = (): ClusterRoleBinding =>
  clusterRoleBinding({ name: FLANNEL, labels: { 'k8s-app': FLANNEL } }, FLANNEL, [
    serviceAccountSubject(FLANNEL),
  ]);

export const flannelServiceAccount = (): ServiceAccount =>
  serviceAccount({ name: FLANNEL, namespace: KUBE_SYSTEM, labels: { 'k8s-app': FLANNEL } });

/** the CNI conflist the init container copies to /etc/cni/net.d */
export const FLANNEL_CNI_CONF = `{
  "name": "cbr0",
  "cniVersion": "0.3.1",
  "plugins": [
    {
      "type": "flannel",
      "delegate": {
        "hairpinMode": true,
        "isDefaultGateway": true
      }
    },
    {
      "type": "portmap",
      "capabilities": {
        "portMappings": true
      }
    }
  ]
}`;

/** flannelNetConf is net-conf.json: the last IPv4 and IPv6 pod range (a range with a dot is IPv4), IPv4
 * switched off when there is none, over VXLAN on the IANA port. Keys in upstream's order. */
export function flannelNetConf(podCIDRs: readonly string[]): string {
  let network: string | undefined;
  let ipv6Network: string | undefined;
  for (const cidr of podCIDRs) {
    if (cidr.includes('.')) network = cidr;
    else ipv6Network = cidr;
  }
  const conf = {
    ...(network ? { Network: network } : {}),
    ...(ipv6Network ? { IPv6Network: ipv6Network, EnableIPv6: true } : {}),
    ...(network ? {} : { EnableIPv4: false }),
    Backend: { Type: 'vxlan', Port: 4789 },
  };
  return JSON.stringify(conf, null, 2);
}

export const flannelConfigMap = (cfg: Pick<BootstrapManifestsConfigSpec, 'podCIDRs'>): ConfigMap =>
  configMap(
    { name: FLANNEL_CONFIG_MAP, namespace: KUBE_SYSTEM, labels: { ...FLANNEL_LABELS } },
    { 'cni-conf.json': FLANNEL_CNI_CONF, 'net-conf.json': flannelNetConf(cfg.podCIDRs) },
  );
