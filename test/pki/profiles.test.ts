import { describe, expect, it } from 'vitest';
import { profiles, Role } from '../../src/pki/index.js';

const node = { hostname: 'cp-1', dnsNames: ['cp-1', 'cp-1.lan'], ipAddresses: ['10.5.0.2'] };

describe('issuance templates', () => {
  it('adds localhost and 127.0.0.1 to the etcd server certificate, not to the peer one', () => {
    expect(profiles.etcdServer(node).dnsNames).toEqual(['cp-1', 'cp-1.lan', 'localhost']);
    expect(profiles.etcdServer(node).ipAddresses).toEqual(['10.5.0.2', '127.0.0.1']);
    expect(profiles.etcdPeer(node).dnsNames).toEqual(['cp-1', 'cp-1.lan']);
    expect(profiles.etcdPeer(node).ipAddresses).toEqual(['10.5.0.2']);
  });

  it('adds ::1 only on nodes with an IPv6 address', () => {
    const v6 = { ...node, ipAddresses: ['10.5.0.2', 'fd00::2'] };
    expect(profiles.etcdServer(v6).ipAddresses).toEqual(['10.5.0.2', 'fd00::2', '127.0.0.1', '::1']);
  });

  it('gives the apid client the impersonator role and the talosconfig client os:admin without a CN', () => {
    expect(profiles.apidClient('cp-1.lan').organizations).toEqual([Role.impersonator]);
    const t = profiles.talosAPIClient();
    expect(t.organizations).toEqual(['os:admin']);
    expect(t.commonName).toBeUndefined();
    expect(t.extKeyUsage).toEqual(['clientAuth']);
  });

  it('backdates only kubeconfig clients, by 10 s', () => {
    expect(profiles.kubeconfigClient('talos:admin', 'system:masters').backdateMs).toBe(10_000);
    expect(profiles.apiServerKubeletClient().backdateMs).toBeUndefined();
  });
});
