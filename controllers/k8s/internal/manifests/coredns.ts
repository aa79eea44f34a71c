// 11-core-dns and 11-core-dns-svc: CoreDNS's service account and RBAC, its Corefile, and the kube-dns
// Service at the cluster DNS addresses (the tenth of each service range), dual-stack when there are two.
// The Deployment is coredns-deployment.ts.
import type { BootstrapManifestsConfigSpec } from '../../../../resources/k8s/index.js';
import {
  clusterRole,
  clusterRoleBinding,
  configMap,
  KUBE_SYSTEM,
  serviceAccount,
  serviceAccountSubject,
} from './objects.js';
import type { ClusterRole, ClusterRoleBinding, ConfigMap, Service, ServiceAccount } from './types.js';

export const COREDNS = 'coredns';
const ROLE = 'system:coredns';
const BOOTSTRAPPING = { 'kubernetes.io/bootstrapping': 'rbac-defaults' };

export const coreDNSServiceAccount = (): ServiceAccount =>
  serviceAccount({ name: COREDNS, namespace: KUBE_SYSTEM });

export const coreDNSClusterRoleBinding = (): ClusterRoleBinding =>
  clusterRoleBinding(
    {
      name: ROLE,
      labels: { ...BOOTSTRAPPING },
      annotations: { 'rbac.authorization.kubernetes.io/autoupdate': 'true' },
    },
    ROLE,
    [serviceAccountSubject(COREDNS)],
  );

export const coreDNSClusterRole = (): ClusterRole =>
  clusterRole({ name: ROLE, labels: { ...BOOTSTRAPPING } }, [
    { apiGroups: [''], resources: ['endpoints', 'services', 'pods', 'namespaces'], verbs: ['list', 'watch'] },
    { apiGroups: ['discovery.k8s.io'], resources: ['endpointslices'], verbs: ['list', 'watch'] },
  ]);

/** corefile serves the cluster domain from Kubernetes and forwards the rest to the host's resolvers; the
 * cache keeps no answers for the cluster domain, so a new Service resolves at once. */
export function corefile(clusterDomain: string): string {
  const cache = clusterDomain
    ? ` {
       disable success ${clusterDomain}
       disable denial ${clusterDomain}
    }
`
    : '\n';
  return `.:53 {
    errors
    health {
        lameduck 5s
    }
    ready
    log . {
        class error
    }
    prometheus :9153

    kubernetes ${clusterDomain} in-addr.arpa ip6.arpa {
        pods insecure
        fallthrough in-addr.arpa ip6.arpa
        ttl 30
    }
    forward . /etc/resolv.conf {
       max_concurrent 1000
    }
    cache 30${cache}    loop
    reload
    loadbalance
}
`;
}

export const coreDNSConfigMap = (cfg: Pick<BootstrapManifestsConfigSpec, 'clusterDomain'>): ConfigMap =>
  configMap({ name: COREDNS, namespace: KUBE_SYSTEM }, { Corefile: corefile(cfg.clusterDomain) });

type DNSAddresses = Pick<BootstrapManifestsConfigSpec, 'dnsServiceIP' | 'dnsServiceIPv6'>;

export function coreDNSService({ dnsServiceIP: v4, dnsServiceIPv6: v6 }: DNSAddresses): Service {
  const ips = [v4, v6].filter((ip) => ip !== '');
  const families = [...(v4 ? ['IPv4' as const] : []), ...(v6 ? ['IPv6' as const] : [])];
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: {
      name: 'kube-dns',
      namespace: KUBE_SYSTEM,
      annotations: { 'prometheus.io/scrape': 'true', 'prometheus.io/port': '9153' },
      labels: {
        'k8s-app': 'kube-dns',
        'kubernetes.io/cluster-service': 'true',
        'kubernetes.io/name': 'CoreDNS',
      },
    },
    spec: {
      selector: { 'k8s-app': 'kube-dns' },
      // without an address, the fields are absent, as upstream's conversion drops empty values
      ...(ips.length ? { clusterIP: ips[0]!, clusterIPs: ips, ipFamilies: families } : {}),
      ipFamilyPolicy: v4 && v6 ? 'RequireDualStack' : 'SingleStack',
      ports: [
        { name: 'dns', port: 53, protocol: 'UDP', targetPort: 53 },
        { name: 'dns-tcp', port: 53, protocol: 'TCP', targetPort: 53 },
        { name: 'metrics', port: 9153, protocol: 'TCP', targetPort: 9153 },
      ],
    },
  };
}
