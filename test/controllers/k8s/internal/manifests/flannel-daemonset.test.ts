// 05-flannel's DaemonSet.
import { describe, expect, it } from 'vitest';
import { flannelDaemonSet } from '../../../../../controllers/k8s/internal/manifests/flannel-daemonset.js';

const settings = {
  flannelImage: 'ghcr.io/siderolabs/flannel:v0.28.7',
  flannelExtraArgs: ['--iface=eth1'],
  flannelKubeServiceHost: '',
  flannelKubeServicePort: '',
  flannelKubeNetworkPoliciesEnabled: false,
  flannelKubeNetworkPoliciesImage: 'registry.k8s.io/networking/kube-network-policies:v1.0.0',
};

describe('the flannel DaemonSet', () => {
  it('runs flanneld on every Linux node’s host network, its CNI config installed first', () => {
    const ds = flannelDaemonSet(settings);
    const labels = { 'k8s-app': 'flannel', tier: 'node' };
    expect(ds.metadata).toEqual({ name: 'kube-flannel', namespace: 'kube-system', labels });
    expect(ds.spec.selector).toEqual({ matchLabels: labels });
    expect(ds.spec.updateStrategy).toEqual({});
    const pod = ds.spec.template.spec;
    expect(pod).toMatchObject({
      hostNetwork: true,
      priorityClassName: 'system-node-critical',
      serviceAccountName: 'flannel',
      tolerations: [
        { effect: 'NoSchedule', operator: 'Exists' },
        { effect: 'NoExecute', operator: 'Exists' },
      ],
    });
    expect(pod.affinity).toEqual({
      nodeAffinity: {
        requiredDuringSchedulingIgnoredDuringExecution: {
          nodeSelectorTerms: [
            { matchExpressions: [{ key: 'kubernetes.io/os', operator: 'In', values: ['linux'] }] },
          ],
        },
      },
    });
    expect(pod.containers).toHaveLength(1);
    expect(pod.containers[0]).toMatchObject({
      name: 'kube-flannel',
      image: settings.flannelImage,
      command: ['/opt/bin/flanneld'],
      args: ['--ip-masq', '--kube-subnet-mgr', '--iface=eth1'],
      resources: { requests: { cpu: '100m', memory: '50Mi' } },
      securityContext: { capabilities: { add: ['NET_ADMIN', 'NET_RAW'] }, privileged: false },
      volumeMounts: [
        { name: 'run', mountPath: '/run/flannel' },
        { name: 'flannel-cfg', mountPath: '/etc/kube-flannel/' },
      ],
    });
    expect(pod.containers[0]!.env?.map((e) => e.name)).toEqual([
      'POD_NAME',
      'POD_NAMESPACE',
      'EVENT_QUEUE_DEPTH',
      'CONT_WHEN_CACHE_NOT_READY',
    ]);
    expect(pod.initContainers).toEqual([
      {
        name: 'install-config',
        image: settings.flannelImage,
        command: ['/opt/bin/install-conf'],
        args: ['/etc/kube-flannel/cni-conf.json', '/etc/cni/net.d/10-flannel.conflist'],
        resources: {},
        volumeMounts: [
          { name: 'cni', mountPath: '/etc/cni/net.d' },
          { name: 'flannel-cfg', mountPath: '/etc/kube-flannel/' },
        ],
      },
    ]);
    expect(pod.volumes).toEqual([
      { name: 'run', hostPath: { path: '/run/flannel' } },
      { name: 'cni', hostPath: { path: '/etc/cni/net.d' } },
      { name: 'flannel-cfg', configMap: { name: 'kube-flannel-cfg' } },
    ]);
  });

  it('reaches the API server through KubePrism, and runs kube-network-policies beside it when asked', () => {
    const ds = flannelDaemonSet({
      ...settings,
      flannelKubeServiceHost: '127.0.0.1',
      flannelKubeServicePort: '7445',
      flannelKubeNetworkPoliciesEnabled: true,
    });
    const pod = ds.spec.template.spec;
    expect(pod.containers[0]!.env?.slice(4)).toEqual([
      { name: 'KUBERNETES_SERVICE_HOST', value: '127.0.0.1' },
      { name: 'KUBERNETES_SERVICE_PORT', value: '7445' },
    ]);
    expect(pod.containers[1]).toEqual({
      name: 'kube-network-policies',
      image: settings.flannelKubeNetworkPoliciesImage,
      command: ['/bin/netpol', '--hostname-override=$(MY_NODE_NAME)', '--v=2'],
      env: [{ name: 'MY_NODE_NAME', valueFrom: { fieldRef: { fieldPath: 'spec.nodeName' } } }],
      resources: { requests: { cpu: '100m', memory: '50Mi' } },
      securityContext: { capabilities: { add: ['NET_ADMIN'] }, privileged: true },
      volumeMounts: [{ name: 'lib-modules', mountPath: '/lib/modules', readOnly: true }],
    });
    expect(pod.volumes.at(-1)).toEqual({ name: 'lib-modules', hostPath: { path: '/usr/lib/modules' } });
  });
});
