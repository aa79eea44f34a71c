// 11-talos-node-rbac-template: nodes may read EndpointSlices.
import { describe, expect, it } from 'vitest';
import {
  talosNodesRBACClusterRole,
  talosNodesRBACClusterRoleBinding,
} from '../../../../../controllers/k8s/internal/manifests/talos-nodes-rbac.js';

const rbac = 'rbac.authorization.k8s.io';
const grp = (name: string) => ({ kind: 'Group', name, apiGroup: rbac });

describe('the Talos nodes RBAC', () => {
  it('lets every node read EndpointSlices', () => {
    const labels = { 'kubernetes.io/bootstrapping': 'rbac-defaults' };
    expect(talosNodesRBACClusterRoleBinding()).toEqual({
      apiVersion: `${rbac}/v1`,
      kind: 'ClusterRoleBinding',
      metadata: {
        name: 'system:talos-nodes',
        labels,
        annotations: { 'rbac.authorization.kubernetes.io/autoupdate': 'true' },
      },
      roleRef: { apiGroup: rbac, kind: 'ClusterRole', name: 'system:talos-nodes' },
      subjects: [grp('system:nodes')],
    });
    expect(talosNodesRBACClusterRole()).toEqual({
      apiVersion: `${rbac}/v1`,
      kind: 'ClusterRole',
      metadata: { name: 'system:talos-nodes', labels },
      rules: [
        { apiGroups: ['discovery.k8s.io'], resources: ['endpointslices'], verbs: ['get', 'list', 'watch'] },
      ],
    });
  });
});
