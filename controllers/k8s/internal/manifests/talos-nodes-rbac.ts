// 11-talos-node-rbac-template: lets every node read the cluster's EndpointSlices, which Talos's discovery
// reads to find the control plane's endpoints.
import { NODES_GROUP } from './csr.js';
import { clusterRole, clusterRoleBinding, group } from './objects.js';
import type { ClusterRole, ClusterRoleBinding } from './types.js';

const NAME = 'system:talos-nodes';
const BOOTSTRAPPING = { 'kubernetes.io/bootstrapping': 'rbac-defaults' };

export const talosNodesRBACClusterRoleBinding = (): ClusterRoleBinding =>
  clusterRoleBinding(
    {
      name: NAME,
      labels: { ...BOOTSTRAPPING },
      annotations: { 'rbac.authorization.kubernetes.io/autoupdate': 'true' },
    },
    NAME,
    [group(NODES_GROUP)],
  );

export const talosNodesRBACClusterRole = (): ClusterRole =>
  clusterRole({ name: NAME, labels: { ...BOOTSTRAPPING } }, [
    { apiGroups: ['discovery.k8s.io'], resources: ['endpointslices'], verbs: ['get', 'list', 'watch'] },
  ]);
