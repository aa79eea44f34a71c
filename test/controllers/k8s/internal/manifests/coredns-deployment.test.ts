// 11-core-dns's Deployment.
import { describe, expect, it } from 'vitest';
import { coreDNSDeployment } from '../../../../../controllers/k8s/internal/manifests/coredns-deployment.js';

describe('the CoreDNS Deployment', () => {
  const d = coreDNSDeployment({ coreDNSImage: 'registry.k8s.io/coredns/coredns:v1.14.6' });
  const pod = d.spec.template.spec;
  const c = pod.containers[0]!;

  it('runs two replicas in kube-system, one down at a time, spread over nodes', () => {
    expect(d.metadata).toEqual({
      name: 'coredns',
      namespace: 'kube-system',
      labels: { 'k8s-app': 'kube-dns', 'kubernetes.io/name': 'CoreDNS' },
    });
    expect(d.spec.replicas).toBe(2);
    expect(d.spec.strategy).toEqual({ type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1 } });
    expect(d.spec.selector).toEqual({ matchLabels: { 'k8s-app': 'kube-dns' } });
    expect(d.spec.template.metadata).toEqual({ labels: { 'k8s-app': 'kube-dns' } });
    expect(pod.affinity).toMatchObject({
      podAntiAffinity: {
        preferredDuringSchedulingIgnoredDuringExecution: [
          { weight: 100, podAffinityTerm: { topologyKey: 'kubernetes.io/hostname' } },
        ],
      },
    });
    expect(pod).toMatchObject({
      nodeSelector: { 'kubernetes.io/os': 'linux' },
      serviceAccountName: 'coredns',
      priorityClassName: 'system-cluster-critical',
      dnsPolicy: 'Default',
    });
    expect(pod.tolerations.map((t) => t.key)).toEqual([
      'node-role.kubernetes.io/control-plane',
      'node.cloudprovider.kubernetes.io/uninitialized',
    ]);
  });

  it('reads its Corefile from the coredns ConfigMap, with upstream’s limits, probes and privileges', () => {
    expect(c).toMatchObject({
      name: 'coredns',
      image: 'registry.k8s.io/coredns/coredns:v1.14.6',
      imagePullPolicy: 'IfNotPresent',
      args: ['-conf', '/etc/coredns/Corefile'],
      resources: { limits: { memory: '170Mi' }, requests: { cpu: '100m', memory: '70Mi' } },
      env: [{ name: 'GOMEMLIMIT', value: '161MiB' }],
      volumeMounts: [{ name: 'config-volume', mountPath: '/etc/coredns', readOnly: true }],
      livenessProbe: { httpGet: { path: '/health', port: 8080, scheme: 'HTTP' }, failureThreshold: 5 },
      readinessProbe: { httpGet: { path: '/ready', port: 8181, scheme: 'HTTP' } },
      securityContext: {
        allowPrivilegeEscalation: false,
        capabilities: { add: ['NET_BIND_SERVICE'], drop: ['ALL'] },
        readOnlyRootFilesystem: true,
      },
    });
    expect(c.ports?.map((p) => `${p.name}/${p.protocol}/${p.containerPort}`)).toEqual([
      'dns/UDP/53',
      'dns-tcp/TCP/53',
      'metrics/TCP/9153',
    ]);
    expect(pod.volumes).toEqual([
      {
        name: 'config-volume',
        configMap: { name: 'coredns', items: [{ key: 'Corefile', path: 'Corefile' }] },
      },
    ]);
  });
});
