import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { documentOf, documentsOf, v1alpha1Of } from '../../../src/config/container.js';
import { decode } from '../../../src/config/decoder/index.js';
import { ConfigErrors, isPatchError } from '../../../src/config/errors.js';
import { applyPatches, loadPatch } from '../../../src/config/patch/index.js';

const base = decode(readFileSync(new URL('../fixtures/controlplane.yaml.txt', import.meta.url), 'utf8'));
const patch = (...texts: string[]) => applyPatches(base, texts.map(loadPatch));
const v1 = (cfg = base) => v1alpha1Of(cfg)!;

describe('strategic merge patches (§1.7)', () => {
  it('merges a matching v1alpha1 document field by field', () => {
    const out = patch('machine:\n  network:\n    hostname: cp-1\n  install:\n    disk: /dev/vda\n');
    expect(v1(out).machine!.network!.hostname).toBe('cp-1');
    expect(v1(out).machine!.install).toMatchObject({
      disk: '/dev/vda',
      wipe: false,
      grubUseUKICmdline: true,
    });
    expect(v1(base).machine!.install!.disk).toBe('/dev/sda'); // the input is not touched
  });

  it('does not let a zero value override, but an explicit false does', () => {
    const out = patch(
      'machine:\n  install:\n    image: ""\n  features:\n    rbac: false\n  kubelet:\n    defaultRuntimeSeccompProfileEnabled: false\n',
    );
    expect(v1(out).machine!.install!.image).toBe('ghcr.io/siderolabs/installer:v1.13.9');
    expect(v1(out).machine!.features!.rbac).toBe(false);
    expect(v1(out).machine!.kubelet!.defaultRuntimeSeccompProfileEnabled).toBe(false);
  });

  it('appends to lists', () => {
    const out = patch(
      'machine:\n  certSANs:\n    - 10.0.0.1\ncluster:\n  apiServer:\n    certSANs:\n      - api.example.org\n',
    );
    expect(v1(out).machine!.certSANs).toEqual(['10.0.0.1']);
    expect(v1(out).cluster!.apiServer!.certSANs).toEqual(['10.5.0.2', 'api.example.org']);
  });

  it('replaces lists tagged merge:replace (podSubnets, serviceSubnets) and auditPolicy', () => {
    const out = patch(
      'cluster:\n  network:\n    podSubnets:\n      - 10.32.0.0/12\n    serviceSubnets:\n      - 10.112.0.0/12\n  apiServer:\n    auditPolicy:\n      apiVersion: audit.k8s.io/v1\n      kind: Policy\n      rules:\n        - level: None\n',
    );
    expect(v1(out).cluster!.network!.podSubnets).toEqual(['10.32.0.0/12']);
    expect(v1(out).cluster!.network!.serviceSubnets).toEqual(['10.112.0.0/12']);
    expect(v1(out).cluster!.apiServer!.auditPolicy).toEqual({
      apiVersion: 'audit.k8s.io/v1',
      kind: 'Policy',
      rules: [{ level: 'None' }],
    });
  });

  it('merges maps key by key', () => {
    const out = patch('machine:\n  nodeLabels:\n    rack: r1\n  sysctls:\n    net.ipv4.ip_forward: "1"\n');
    expect(v1(out).machine!.nodeLabels).toEqual({
      'node.kubernetes.io/exclude-from-external-load-balancers': '',
      rack: 'r1',
    });
    expect(v1(out).machine!.sysctls).toEqual({ 'net.ipv4.ip_forward': '1' });
  });

  it('merges interfaces by name or deviceSelector and VLANs by vlanId', () => {
    const step1 = patch(
      'machine:\n  network:\n    interfaces:\n      - interface: eth0\n        addresses: [10.0.0.2/24]\n        vlans:\n          - vlanId: 10\n            addresses: [192.168.10.2/24]\n      - deviceSelector:\n          hardwareAddr: "aa:bb:*"\n        dhcp: true\n',
    );
    const out = applyPatches(step1, [
      loadPatch(
        'machine:\n  network:\n    interfaces:\n      - interface: eth0\n        mtu: 9000\n        vlans:\n          - vlanId: 10\n            mtu: 1400\n          - vlanId: 20\n      - deviceSelector:\n          hardwareAddr: "aa:bb:*"\n        dhcpOptions:\n          routeMetric: 100\n      - interface: eth1\n',
      ),
    ]);
    const ifs = v1(out).machine!.network!.interfaces!;
    expect(ifs).toHaveLength(3);
    expect(ifs[0]).toMatchObject({ interface: 'eth0', addresses: ['10.0.0.2/24'], mtu: 9000 });
    expect(ifs[0]!.vlans).toEqual([
      { vlanId: 10, addresses: ['192.168.10.2/24'], mtu: 1400 },
      { vlanId: 20 },
    ]);
    expect(ifs[1]).toMatchObject({ dhcp: true, dhcpOptions: { routeMetric: 100 } });
    expect(ifs[2]).toEqual({ interface: 'eth1' });
  });

  it('merges admission plugins by name', () => {
    const out = patch(
      'cluster:\n  apiServer:\n    admissionControl:\n      - name: PodSecurity\n        configuration:\n          defaults:\n            enforce: restricted\n      - name: EventRateLimit\n        configuration:\n          kind: Configuration\n',
    );
    const ac = v1(out).cluster!.apiServer!.admissionControl!;
    expect(ac.map((p) => p.name)).toEqual(['PodSecurity', 'EventRateLimit']);
    expect((ac[0]!.configuration!.defaults as Record<string, string>).enforce).toBe('restricted');
    expect((ac[0]!.configuration!.defaults as Record<string, string>).audit).toBe('restricted');
  });

  it('appends a document that matches nothing, matched by kind and name', () => {
    const out = patch(
      'apiVersion: v1alpha1\nkind: LinkConfig\nname: eth1\nmtu: 9000\n---\napiVersion: v1alpha1\nkind: LinkConfig\nname: eth2\n',
    );
    expect(documentsOf(out, 'LinkConfig').map((d) => d.name)).toEqual(['eth1', 'eth2']);
    const again = applyPatches(out, [
      loadPatch('apiVersion: v1alpha1\nkind: LinkConfig\nname: eth1\nup: false\n'),
    ]);
    expect(documentOf(again, 'LinkConfig', 'eth1')).toMatchObject({ mtu: 9000, up: false });
    expect(documentOf(again, 'LinkConfig', 'eth2')).toEqual({
      apiVersion: 'v1alpha1',
      kind: 'LinkConfig',
      name: 'eth2',
    });
  });

  it('merges a typed document (the hostname case: auto and hostname end up together)', () => {
    const out = patch('apiVersion: v1alpha1\nkind: HostnameConfig\nhostname: cp-1\n');
    expect(documentOf(out, 'HostnameConfig')).toEqual({
      apiVersion: 'v1alpha1',
      kind: 'HostnameConfig',
      auto: 'stable',
      hostname: 'cp-1',
    });
  });

  it('deletes a path with $patch: delete', () => {
    const out = patch(
      'machine:\n  network:\n    $patch: delete\ncluster:\n  apiServer:\n    admissionControl:\n      - name: PodSecurity\n        $patch: delete\n',
    );
    expect(v1(out).machine!.network).toBeUndefined();
    expect(v1(out).cluster!.apiServer!.admissionControl).toEqual([]);
    expect(v1(out).cluster!.apiServer!.image).toBe('registry.k8s.io/kube-apiserver:v1.36.3');
  });

  it('deletes a keyed list item and a map key', () => {
    const withIfs = patch(
      'machine:\n  network:\n    interfaces:\n      - interface: eth0\n        dhcp: true\n      - interface: eth1\n        dhcp: true\n',
    );
    const out = applyPatches(withIfs, [
      loadPatch(
        'machine:\n  network:\n    interfaces:\n      - interface: eth0\n        $patch: delete\n  nodeLabels:\n    node.kubernetes.io/exclude-from-external-load-balancers:\n      $patch: delete\n',
      ),
    ]);
    expect(v1(out).machine!.network!.interfaces!.map((i) => i.interface)).toEqual(['eth1']);
    expect(v1(out).machine!.nodeLabels).toEqual({});
  });

  it('deletes a whole typed document', () => {
    const out = patch('apiVersion: v1alpha1\nkind: HostnameConfig\n$patch: delete\n');
    expect(documentsOf(out, 'HostnameConfig')).toHaveLength(0);
  });

  it('deletes a typed document that a selector leaves empty', () => {
    const out = patch('apiVersion: v1alpha1\nkind: HostnameConfig\nauto:\n  $patch: delete\n');
    expect(documentsOf(out, 'HostnameConfig')).toHaveLength(0);
  });

  it('refuses to delete the v1alpha1 document', () => {
    expect(() => patch('version: v1alpha1\n$patch: delete\n')).toThrow(
      /deleting the v1alpha1 document is not allowed/,
    );
  });

  it('re-checks the result: a patch cannot add unknown fields', () => {
    try {
      patch('machine:\n  network:\n    hostnmae: typo\n');
      expect.unreachable();
    } catch (e) {
      expect((e as Error).message).toMatch(/unknown field "hostnmae"/);
    }
  });

  it('applies several patches in order', () => {
    const out = patch('machine:\n  network:\n    hostname: a\n', 'machine:\n  network:\n    hostname: b\n');
    expect(v1(out).machine!.network!.hostname).toBe('b');
  });

  it('classes patch failures as patch errors', () => {
    try {
      patch('apiVersion: v1alpha1\nkind: LinkConfig\nname: nope\n$patch: delete\n');
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(ConfigErrors);
      expect(isPatchError(e)).toBe(true);
    }
  });
});
