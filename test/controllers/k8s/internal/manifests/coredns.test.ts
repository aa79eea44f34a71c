// 11-core-dns (but the Deployment) and 11-core-dns-svc: RBAC, the Corefile, the kube-dns Service.
import { describe, expect, it } from 'vitest';
import {
  coreDNSClusterRole,
  coreDNSClusterRoleBinding,
  coreDNSConfigMap,
  coreDNSService,
  coreDNSServiceAccount,
  corefile,
} from '../../../../../controllers/k8s/internal/manifests/coredns.js';

describe('CoreDNS', () => {
  it('runs as kube-system/coredns, bound to a role that lists and watches what it serves', () => {
    expect(coreDNSServiceAccount()).toEqual({
      apiVersion: 'v1',
      kind: 'ServiceAccount',
      metadata: { name: 'coredns', namespace: 'kube-system' },
    });
    expect(coreDNSClusterRoleBinding()).toMatchObject({
      metadata: { name: 'system:coredns', labels: { 'kubernetes.io/bootstrapping': 'rbac-defaults' } },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'system:coredns' },
      subjects: [{ kind: 'ServiceAccount', name: 'coredns', namespace: 'kube-system' }],
    });
    expect(coreDNSClusterRole().rules).toEqual([
      {
        apiGroups: [''],
        resources: ['endpoints', 'services', 'pods', 'namespaces'],
        verbs: ['list', 'watch'],
      },
      { apiGroups: ['discovery.k8s.io'], resources: ['endpointslices'], verbs: ['list', 'watch'] },
    ]);
  });

  it('serves the cluster domain, caching no answers for it, and forwards the rest to the host', () => {
    const cm = coreDNSConfigMap({ clusterDomain: 'cluster.local' });
    expect(cm.metadata).toEqual({ name: 'coredns', namespace: 'kube-system' });
    expect(cm.data.Corefile).toBe(`.:53 {
    errors
    health {
        lameduck 5s
    }
    ready
    log . {
        class error
    }
    prometheus :9153

    kubernetes cluster.local in-addr.arpa ip6.arpa {
        pods insecure
        fallthrough in-addr.arpa ip6.arpa
        ttl 30
    }
    forward . /etc/resolv.conf {
       max_concurrent 1000
    }
    cache 30 {
       disable success cluster.local
       disable denial cluster.local
    }
    loop
    reload
    loadbalance
}
`);
    expect(corefile('')).toContain('    kubernetes  in-addr.arpa ip6.arpa {\n');
    expect(corefile('')).toContain('    cache 30\n    loop\n');
  });

  it('is the kube-dns Service at the DNS address, dual-stack with two', () => {
    const v4 = coreDNSService({ dnsServiceIP: '10.96.0.10', dnsServiceIPv6: '' });
    expect(v4.metadata).toEqual({
      name: 'kube-dns',
      namespace: 'kube-system',
      annotations: { 'prometheus.io/scrape': 'true', 'prometheus.io/port': '9153' },
      labels: {
        'k8s-app': 'kube-dns',
        'kubernetes.io/cluster-service': 'true',
        'kubernetes.io/name': 'CoreDNS',
      },
    });
    expect(v4.spec).toEqual({
      selector: { 'k8s-app': 'kube-dns' },
      clusterIP: '10.96.0.10',
      clusterIPs: ['10.96.0.10'],
      ipFamilies: ['IPv4'],
      ipFamilyPolicy: 'SingleStack',
      ports: [
        { name: 'dns', port: 53, protocol: 'UDP', targetPort: 53 },
        { name: 'dns-tcp', port: 53, protocol: 'TCP', targetPort: 53 },
        { name: 'metrics', port: 9153, protocol: 'TCP', targetPort: 9153 },
      ],
    });
    expect(coreDNSService({ dnsServiceIP: '', dnsServiceIPv6: 'fd00::a' }).spec).toMatchObject({
      clusterIP: 'fd00::a',
      clusterIPs: ['fd00::a'],
      ipFamilies: ['IPv6'],
      ipFamilyPolicy: 'SingleStack',
    });
    expect(coreDNSService({ dnsServiceIP: '10.96.0.10', dnsServiceIPv6: 'fd00::a' }).spec).toMatchObject({
      clusterIP: '10.96.0.10',
      clusterIPs: ['10.96.0.10', 'fd00::a'],
      ipFamilies: ['IPv4', 'IPv6'],
      ipFamilyPolicy: 'RequireDualStack',
    });
  });
});
