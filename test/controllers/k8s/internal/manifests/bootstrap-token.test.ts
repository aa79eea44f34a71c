// 00-kubelet-bootstrapping-token: the Secret a kubelet first authenticates with.
import { describe, expect, it } from 'vitest';
import { kubeletBootstrapTokenSecret } from '../../../../../controllers/k8s/internal/manifests/bootstrap-token.js';

describe('the kubelet bootstrap token', () => {
  it('is a kube-system bootstrap token Secret named for the token id', () => {
    expect(
      kubeletBootstrapTokenSecret({ bootstrapTokenID: 'abcdef', bootstrapTokenSecret: '0123456789abcdef' }),
    ).toEqual({
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'bootstrap-token-abcdef', namespace: 'kube-system' },
      type: 'bootstrap.kubernetes.io/token',
      stringData: {
        'token-id': 'abcdef',
        'token-secret': '0123456789abcdef',
        'usage-bootstrap-authentication': 'true',
        'auth-extra-groups': 'system:bootstrappers:nodes',
      },
    });
  });
});
