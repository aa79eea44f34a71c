import { describe, expect, it } from 'vitest';
import { forcedServer, kubeErrorText } from '../../../src/api/cluster/kube.js';
import { KubeError } from '../../../src/k8s/index.js';

describe('forcedServer (the request’s force_endpoint)', () => {
  it('reads host[:port], with or without https://, port 6443 by default', () => {
    expect(forcedServer('10.5.0.2')).toBe('https://10.5.0.2:6443');
    expect(forcedServer('https://10.5.0.2:7445')).toBe('https://10.5.0.2:7445');
    expect(forcedServer('api.example.com')).toBe('https://api.example.com:6443');
    expect(forcedServer('fd00::2')).toBe('https://[fd00::2]:6443');
    expect(forcedServer('[fd00::2]:443')).toBe('https://[fd00::2]:443');
  });
});

describe('kubeErrorText (client-go’s words)', () => {
  const url = new URL(
    'https://10.5.0.2:6443/api/v1/namespaces/kube-system/pods?labelSelector=k8s-app%3Dkube-dns',
  );
  const what = 'GET /api/v1/namespaces/kube-system/pods';

  it('gives an answered error by its Status message alone', () => {
    const e = new KubeError(
      'status',
      `${what}: pods is forbidden: User "admin" cannot list resource "pods"`,
      403,
      'Forbidden',
    );
    expect(kubeErrorText(e, url, what)).toBe('pods is forbidden: User "admin" cannot list resource "pods"');
  });

  it('gives a connect failure as Go’s url.Error, with its net error words', () => {
    const cause = Object.assign(new Error('connect EHOSTUNREACH 10.5.0.2:6443'), { code: 'EHOSTUNREACH' });
    const e = new KubeError('transport', `${what}: ${cause.message}`, undefined, undefined, { cause });
    expect(kubeErrorText(e, url, what)).toBe(
      `Get "${url.href}": dial tcp 10.5.0.2:6443: connect: no route to host`,
    );
    const tls = new Error('unable to verify the first certificate');
    expect(
      kubeErrorText(
        new KubeError('transport', `${what}: x`, undefined, undefined, { cause: tls }),
        url,
        what,
      ),
    ).toBe(`Get "${url.href}": unable to verify the first certificate`);
  });
});
