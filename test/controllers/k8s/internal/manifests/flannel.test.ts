// 05-flannel (but the DaemonSet): RBAC, the service account, the CNI conflist and net-conf.json.
import { describe, expect, it } from 'vitest';
import {
  flannelClusterRole,
  flannelClusterRoleBinding,
  flannelConfigMap,
  flannelNetConf,
  flannelServiceAccount,
} from '../../../../../controllers/k8s/internal/manifests/flannel.js';

describe('flannel', () => {
  it('watches pods, nodes and namespaces, and network policies only when they are on', () => {
    const base = flannelClusterRole({ flannelKubeNetworkPoliciesEnabled: false });
    expect(base.metadata).toEqual({ name: 'flannel', labels: { 'k8s-app': 'flannel' } });
    expect(base.rules).toEqual([
      { apiGroups: [''], resources: ['pods', 'nodes', 'namespaces'], verbs: ['get', 'list', 'watch'] },
      { apiGroups: [''], resources: ['nodes/status'], verbs: ['patch'] },
    ]);
    const policies = flannelClusterRole({ flannelKubeNetworkPoliciesEnabled: true }).rules;
    expect(policies.slice(2)).toEqual([
      { apiGroups: ['networking.k8s.io'], resources: ['networkpolicies'], verbs: ['list', 'watch'] },
      {
        apiGroups: ['policy.networking.k8s.io'],
        resources: ['adminnetworkpolicies', 'baselineadminnetworkpolicies'],
        verbs: ['list', 'watch'],
      },
    ]);
    expect(flannelClusterRoleBinding()).toMatchObject({
      metadata: { name: 'flannel', labels: { 'k8s-app': 'flannel' } },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'flannel' },
      subjects: [{ kind: 'ServiceAccount', name: 'flannel', namespace: 'kube-system' }],
    });
    expect(flannelServiceAccount().metadata).toEqual({
      name: 'flannel',
      namespace: 'kube-system',
      labels: { 'k8s-app': 'flannel' },
    });
  });

  it('writes net-conf.json for IPv4, IPv6 and dual-stack pod ranges', () => {
    expect(flannelNetConf(['10.244.0.0/16'])).toBe(`{
  "Network": "10.244.0.0/16",
  "Backend": {
    "Type": "vxlan",
    "Port": 4789
  }
}`);
    expect(JSON.parse(flannelNetConf(['fd00::/112']))).toEqual({
      IPv6Network: 'fd00::/112',
      EnableIPv6: true,
      EnableIPv4: false,
      Backend: { Type: 'vxlan', Port: 4789 },
    });
    expect(Object.keys(JSON.parse(flannelNetConf(['fd00::/112', '10.244.0.0/16'])))).toEqual([
      'Network',
      'IPv6Network',
      'EnableIPv6',
      'Backend',
    ]);
  });

  it('keeps both files in kube-system/kube-flannel-cfg', () => {
    const cm = flannelConfigMap({ podCIDRs: ['10.244.0.0/16'] });
    expect(cm.metadata).toEqual({
      name: 'kube-flannel-cfg',
      namespace: 'kube-system',
      labels: { 'k8s-app': 'flannel', tier: 'node' },
    });
    expect(Object.keys(cm.data)).toEqual(['cni-conf.json', 'net-conf.json']);
    expect(JSON.parse(cm.data['cni-conf.json']!)).toEqual({
      name: 'cbr0',
      // the flannel plugin the components layer ships speaks CNI up to 0.4.0
      cniVersion: '0.3.1',
      plugins: [
        { type: 'flannel', delegate: { hairpinMode: true, isDefaultGateway: true } },
        { type: 'portmap', capabilities: { portMappings: true } },
      ],
    });
  });
});
