// 01-csr-*: the bindings that let a kubelet join on its own — bootstrapping nodes may file CSRs, their client
// CSRs are approved automatically, and joined nodes renew their own certificates.
import { BOOTSTRAPPERS_GROUP } from './bootstrap-token.js';
import { clusterRoleBinding, group } from './objects.js';
import type { ClusterRoleBinding } from './types.js';

export const NODES_GROUP = 'system:nodes';

export const csrNodeBootstrap = (): ClusterRoleBinding =>
  clusterRoleBinding({ name: 'system-bootstrap-node-bootstrapper' }, 'system:node-bootstrapper', [
    group(BOOTSTRAPPERS_GROUP),
    group(NODES_GROUP),
  ]);

export const csrApproverRoleBinding = (): ClusterRoleBinding =>
  clusterRoleBinding(
    { name: 'system-bootstrap-approve-node-client-csr' },
    'system:certificates.k8s.io:certificatesigningrequests:nodeclient',
    [group(BOOTSTRAPPERS_GROUP)],
  );

export const csrRenewalRoleBinding = (): ClusterRoleBinding =>
  clusterRoleBinding(
    { name: 'system-bootstrap-node-renewal' },
    'system:certificates.k8s.io:certificatesigningrequests:selfnodeclient',
    [group(NODES_GROUP)],
  );
