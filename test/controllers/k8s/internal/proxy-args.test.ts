// kube-proxy's arguments as upstream's getProxyArgs computes them.
import { describe, expect, it } from 'vitest';
import { K8sConfigError } from '../../../../controllers/k8s/internal/errors.js';
import { imageVersion, proxyArgsOf, proxyModeOf } from '../../../../controllers/k8s/internal/proxy-args.js';

describe('kube-proxy arguments', () => {
  it('are upstream’s base set, sorted by flag', () => {
    expect(
      proxyArgsOf({ podCIDRs: ['10.244.0.0/16', 'fd00::/64'], image: 'registry.k8s.io/kube-proxy:v1.34.4' }),
    ).toEqual([
      '--cluster-cidr=10.244.0.0/16,fd00::/64',
      '--conntrack-max-per-core=0',
      '--hostname-override=$(NODE_NAME)',
      '--kubeconfig=/etc/kubernetes/kubeconfig',
      '--proxy-mode=nftables',
    ]);
  });

  it('take the user’s extra arguments over theirs, but never a kubeconfig', () => {
    const args = proxyArgsOf({
      podCIDRs: ['10.244.0.0/16'],
      image: 'registry.k8s.io/kube-proxy:v1.34.4',
      mode: 'ipvs',
      extraArgs: { 'proxy-mode': 'iptables', 'metrics-bind-address': '0.0.0.0:10249' },
    });
    expect(args).toContain('--proxy-mode=iptables');
    expect(args).toContain('--metrics-bind-address=0.0.0.0:10249');
    expect(() =>
      proxyArgsOf({ podCIDRs: [], image: 'x:v1.34.0', extraArgs: { kubeconfig: '/tmp/k' } }),
    ).toThrow(K8sConfigError);
  });

  it('default the mode by the image’s version: nftables from 1.31, iptables before or when unknown', () => {
    expect(proxyModeOf('ipvs', 'registry.k8s.io/kube-proxy:v1.34.4')).toBe('ipvs');
    expect(proxyModeOf(undefined, 'registry.k8s.io/kube-proxy:v1.31.0-rc.1')).toBe('nftables');
    expect(proxyModeOf(undefined, 'registry.k8s.io/kube-proxy:v1.31')).toBe('nftables');
    expect(proxyModeOf(undefined, 'registry.k8s.io/kube-proxy:v1.30.9')).toBe('iptables');
    expect(proxyModeOf(undefined, 'registry.k8s.io/kube-proxy:latest')).toBe('iptables');
    expect(proxyModeOf(undefined, 'localhost:5000/kube-proxy')).toBe('iptables');
  });

  it('read image tags as lenient semver', () => {
    expect(imageVersion('r.io/kube-proxy:v1.34.4@sha256:abc')).toEqual([1, 34, 4]);
    expect(imageVersion('r.io:5000/kube-proxy:2')).toEqual([2, 0, 0]);
    expect(imageVersion('r.io/kube-proxy:v1.31-rc.1')).toBeUndefined();
    expect(imageVersion('r.io:5000/kube-proxy')).toBeUndefined();
  });
});
