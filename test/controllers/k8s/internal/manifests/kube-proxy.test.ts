// 10-kube-proxy: the DaemonSet, its service account and binding.
import { describe, expect, it } from 'vitest';
import {
  kubeProxyClusterRoleBinding,
  kubeProxyDaemonSet,
  kubeProxyServiceAccount,
} from '../../../../../controllers/k8s/internal/manifests/kube-proxy.js';

describe('kube-proxy', () => {
  it('runs privileged on every node’s host network with the resolved arguments', () => {
    const ds = kubeProxyDaemonSet({
      proxyImage: 'registry.k8s.io/kube-proxy:v1.34.4',
      proxyArgs: ['--cluster-cidr=10.244.0.0/16', '--proxy-mode=nftables'],
    });
    const labels = { tier: 'node', 'k8s-app': 'kube-proxy' };
    expect(ds.metadata).toEqual({ name: 'kube-proxy', namespace: 'kube-system', labels });
    expect(ds.spec.selector).toEqual({ matchLabels: labels });
    expect(ds.spec.updateStrategy).toEqual({ type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1 } });
    const pod = ds.spec.template.spec;
    expect(pod).toMatchObject({
      hostNetwork: true,
      priorityClassName: 'system-cluster-critical',
      serviceAccountName: 'kube-proxy',
    });
    expect(pod.containers).toEqual([
      {
        name: 'kube-proxy',
        image: 'registry.k8s.io/kube-proxy:v1.34.4',
        command: ['/usr/local/bin/kube-proxy', '--cluster-cidr=10.244.0.0/16', '--proxy-mode=nftables'],
        env: [
          { name: 'NODE_NAME', valueFrom: { fieldRef: { fieldPath: 'spec.nodeName' } } },
          { name: 'POD_IP', valueFrom: { fieldRef: { fieldPath: 'status.podIP' } } },
        ],
        resources: {},
        securityContext: { privileged: true },
        volumeMounts: [
          { name: 'lib-modules', mountPath: '/lib/modules', readOnly: true },
          { name: 'ssl-certs-host', mountPath: '/etc/ssl/certs', readOnly: true },
          { name: 'kubeconfig', mountPath: '/etc/kubernetes', readOnly: true },
        ],
      },
    ]);
    // the in-cluster kubeconfig's ConfigMap is what --kubeconfig=/etc/kubernetes/kubeconfig reads
    expect(pod.volumes).toEqual([
      { name: 'lib-modules', hostPath: { path: '/usr/lib/modules' } },
      { name: 'ssl-certs-host', hostPath: { path: '/etc/ssl/certs' } },
      { name: 'kubeconfig', configMap: { name: 'kubeconfig-in-cluster' } },
    ]);
  });

  it('is bound to the node proxier role', () => {
    expect(kubeProxyServiceAccount().metadata).toEqual({ name: 'kube-proxy', namespace: 'kube-system' });
    expect(kubeProxyClusterRoleBinding()).toMatchObject({
      metadata: { name: 'kube-proxy' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'system:node-proxier' },
      subjects: [{ kind: 'ServiceAccount', name: 'kube-proxy', namespace: 'kube-system' }],
    });
  });
});
