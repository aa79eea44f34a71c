// The bootstrap manifests' list: upstream's ids in upstream's order, the optional families as switched.
import { describe, expect, it } from 'vitest';
import { K8sConfigError } from '../../../../../controllers/k8s/internal/errors.js';
import { renderBootstrapManifests } from '../../../../../controllers/k8s/internal/manifests/render.js';
import { bootstrapManifestsConfigZero } from '../../../../../resources/k8s/index.js';

const root = { bootstrapTokenID: 'abcdef', bootstrapTokenSecret: '0123456789abcdef' };
const cfg = (over: Partial<ReturnType<typeof bootstrapManifestsConfigZero>> = {}) => ({
  ...bootstrapManifestsConfigZero(),
  server: 'https://127.0.0.1:7445',
  clusterDomain: 'cluster.local',
  podCIDRs: ['10.244.0.0/16'],
  dnsServiceIP: '10.96.0.10',
  ...over,
});
const summary = (c: ReturnType<typeof cfg>) =>
  renderBootstrapManifests(c, root).map((m) => [
    m.id,
    m.objects.map((o) => `${o.kind}/${(o.metadata as { name: string }).name}`),
  ]);

describe('renderBootstrapManifests', () => {
  it('always renders the token, the CSR bindings, the in-cluster kubeconfig and the nodes’ RBAC', () => {
    expect(summary(cfg())).toEqual([
      ['00-kubelet-bootstrapping-token', ['Secret/bootstrap-token-abcdef']],
      ['01-csr-node-bootstrap', ['ClusterRoleBinding/system-bootstrap-node-bootstrapper']],
      ['01-csr-approver-role-binding', ['ClusterRoleBinding/system-bootstrap-approve-node-client-csr']],
      ['01-csr-renewal-role-binding', ['ClusterRoleBinding/system-bootstrap-node-renewal']],
      ['11-kube-config-in-cluster', ['ConfigMap/kubeconfig-in-cluster']],
      [
        '11-talos-node-rbac-template',
        ['ClusterRoleBinding/system:talos-nodes', 'ClusterRole/system:talos-nodes'],
      ],
    ]);
  });

  it('adds CoreDNS, flannel, kube-proxy and the Talos API CRD as the config switches them on', () => {
    const all = summary(
      cfg({ coreDNSEnabled: true, flannelEnabled: true, proxyEnabled: true, talosAPIServiceEnabled: true }),
    );
    expect(all.slice(6)).toEqual([
      [
        '11-core-dns',
        [
          'ServiceAccount/coredns',
          'ClusterRole/system:coredns',
          'ClusterRoleBinding/system:coredns',
          'ConfigMap/coredns',
          'Deployment/coredns',
        ],
      ],
      ['11-core-dns-svc', ['Service/kube-dns']],
      [
        '05-flannel',
        [
          'ClusterRole/flannel',
          'ClusterRoleBinding/flannel',
          'ServiceAccount/flannel',
          'ConfigMap/kube-flannel-cfg',
          'DaemonSet/kube-flannel',
        ],
      ],
      [
        '10-kube-proxy',
        ['DaemonSet/kube-proxy', 'ServiceAccount/kube-proxy', 'ClusterRoleBinding/kube-proxy'],
      ],
      ['13-talos-service-account-crd', ['CustomResourceDefinition/serviceaccounts.talos.dev']],
    ]);
  });

  it('refuses a pod security policy with upstream’s message', () => {
    expect(() => renderBootstrapManifests(cfg({ podSecurityPolicyEnabled: true }), root)).toThrow(
      new K8sConfigError(
        'pod security policies are not supported anymore, please remove the flag from the configuration',
      ),
    );
  });
});
