// 00-kubelet-bootstrapping-token: the bootstrap token Secret kubelets authenticate with to ask for their
// client certificates, in the group the CSR bindings (csr.ts) let through.
import type { KubernetesRootSpec } from '../../../../resources/secrets/index.js';
import { KUBE_SYSTEM } from './objects.js';
import type { Secret } from './types.js';

export const BOOTSTRAPPERS_GROUP = 'system:bootstrappers:nodes';

export const kubeletBootstrapTokenSecret = (
  root: Pick<KubernetesRootSpec, 'bootstrapTokenID' | 'bootstrapTokenSecret'>,
): Secret => ({
  apiVersion: 'v1',
  kind: 'Secret',
  metadata: { name: `bootstrap-token-${root.bootstrapTokenID}`, namespace: KUBE_SYSTEM },
  type: 'bootstrap.kubernetes.io/token',
  stringData: {
    'token-id': root.bootstrapTokenID,
    'token-secret': root.bootstrapTokenSecret,
    'usage-bootstrap-authentication': 'true',
    'auth-extra-groups': BOOTSTRAPPERS_GROUP,
  },
});
