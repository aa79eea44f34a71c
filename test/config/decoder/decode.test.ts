import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { documentOf, documentsOf, v1alpha1Of } from '../../../src/config/container.js';
import { decode } from '../../../src/config/decoder/index.js';
import { ConfigError, ConfigErrors, isConflictError, isDecodeError } from '../../../src/config/errors.js';

/** errorsOf decodes and returns the rendered errors (the decode must fail). */
function errorsOf(src: string): ConfigError[] {
  try {
    decode(src);
  } catch (e) {
    if (e instanceof ConfigErrors) return [...e.errors];
    throw e;
  }
  throw new Error('decode succeeded');
}

describe('decoder errors carry the document, path and line', () => {
  it('renders like "v1alpha1 machine.network.interfaces[0].addresses[1] (line N): …"', () => {
    const e = new ConfigError(
      'invalid',
      'v1alpha1',
      'machine.network.interfaces[0].addresses[1]',
      12,
      'not a CIDR',
    );
    expect(e.message).toBe('v1alpha1 machine.network.interfaces[0].addresses[1] (line 12): not a CIDR');
  });

  it('rejects an unknown key with its line', () => {
    const [e, ...rest] = errorsOf(
      'version: v1alpha1\nmachine:\n  type: worker\n  tipe: worker\ncluster: {}\n',
    );
    expect(rest).toHaveLength(0);
    expect(e!.code).toBe('unknown-field');
    expect(e!.message).toBe('v1alpha1 machine.tipe (line 4): unknown field "tipe"');
    expect(isDecodeError(new ConfigErrors([e!]))).toBe(true);
  });

  it('rejects a collection as a mapping key in a free-form field, with its line, and warns of nothing', () => {
    const warned = vi.spyOn(process, 'emitWarning');
    onTestFinished(() => warned.mockRestore());
    const [e, ...rest] = errorsOf(
      'version: v1alpha1\nmachine:\n  type: worker\n  kubelet:\n    extraConfig:\n      ? [a, b]\n      : x\n',
    );
    expect(rest).toHaveLength(0);
    expect(e!.message).toBe('v1alpha1 machine.kubelet.extraConfig (line 6): mapping keys must be scalars');
    expect(warned).not.toHaveBeenCalled();
  });

  it('rejects a wrong type with its line', () => {
    const [e] = errorsOf('version: v1alpha1\nmachine:\n  certSANs: foo\n');
    expect(e!.message).toBe('v1alpha1 machine.certSANs (line 3): expected a list, got "foo"');
  });

  it('reports a bad boolean, integer and file mode', () => {
    const errs = errorsOf(
      'machine:\n  install:\n    wipe: maybe\n  features:\n    kubePrism:\n      port: high\n  files:\n    - path: /x\n      permissions: rw\n',
    );
    expect(errs.map((e) => e.message)).toEqual([
      'v1alpha1 machine.install.wipe (line 3): expected a boolean, got "maybe"',
      'v1alpha1 machine.features.kubePrism.port (line 6): expected an integer, got "high"',
      'v1alpha1 machine.files[0].permissions (line 9): expected an octal file mode, got "rw"',
    ]);
  });

  it('rejects a typed document without kind or apiVersion', () => {
    expect(errorsOf('apiVersion: v1alpha1\nhostname: a\n')[0]!.message).toBe(
      'document 1 (line 1): missing kind',
    );
    const [e] = errorsOf('version: v1alpha1\n---\nkind: HostnameConfig\nhostname: a\n');
    expect(e!.code).toBe('missing-api-version');
    expect(e!.message).toBe('HostnameConfig (line 3): missing apiVersion');
  });

  it('rejects an unknown kind and an unsupported apiVersion', () => {
    expect(errorsOf('apiVersion: v1alpha1\nkind: FooConfig\n')[0]!.message).toBe(
      'document 1 kind (line 2): unknown document kind "FooConfig"',
    );
    expect(errorsOf('apiVersion: v1beta1\nkind: HostnameConfig\n')[0]!.message).toBe(
      'HostnameConfig apiVersion (line 1): unsupported apiVersion "v1beta1"',
    );
  });

  it('rejects duplicate documents with the line of the second', () => {
    const link = 'apiVersion: v1alpha1\nkind: LinkConfig\nname: eth0\n';
    const [e] = errorsOf(`${link}---\n${link}`);
    expect(e!.message).toBe(
      'LinkConfig/eth0 (line 5): duplicate document v1alpha1/LinkConfig/eth0 is not allowed',
    );
    expect(isConflictError(new ConfigErrors([e!]))).toBe(true);
    const v1 = 'version: v1alpha1\nmachine: {}\n';
    expect(errorsOf(`${v1}---\n${v1}`)[0]!.message).toBe('v1alpha1 (line 4): duplicate v1alpha1.Config');
  });

  it('rejects two documents of different link kinds naming the same link, as upstream', () => {
    const doc = (kind: string) => `apiVersion: v1alpha1\nkind: ${kind}\nname: dummy1\n`;
    const [e, ...rest] = errorsOf(`${doc('LinkConfig')}---\n${doc('DummyLinkConfig')}`);
    expect(rest).toHaveLength(0);
    expect(e!.message).toBe(
      'DummyLinkConfig/dummy1 name (line 7): conflicting documents: LinkConfig/dummy1 and DummyLinkConfig/dummy1',
    );
    expect(isConflictError(new ConfigErrors([e!]))).toBe(true);
  });

  it('rejects a LinkConfig for a link the v1alpha1 document configures', () => {
    const src =
      'machine:\n  network:\n    interfaces:\n      - interface: eth0\n        dhcp: true\n---\napiVersion: v1alpha1\nkind: LinkConfig\nname: eth0\n';
    expect(errorsOf(src)[0]!.message).toBe(
      'LinkConfig/eth0 name (line 9): conflicting link configurations: v1alpha1 and LinkConfig/eth0 both configure "eth0"',
    );
  });

  it('reports YAML syntax errors and duplicate keys with lines', () => {
    expect(errorsOf('machine:\n  type: worker\n  type: controlplane\n')[0]!.message).toMatch(
      /^document 1 \(line 3\): Map keys must be unique/,
    );
    const [e] = errorsOf('machine:\n  type: [worker\n');
    expect(e!.code).toBe('yaml');
    expect(e!.line).toBeGreaterThan(0);
  });

  it('reports every problem at once', () => {
    const errs = errorsOf('machine:\n  foo: 1\n  bar: 2\n---\napiVersion: v1alpha1\nkind: Nope\n');
    expect(errs.map((e) => e.line)).toEqual([2, 3, 6]);
    expect(new ConfigErrors(errs).message).toMatch(/^3 errors occurred:\n\t\* /);
  });
});

describe('decoder documents', () => {
  it('skips empty documents and reads YAML 1.1 booleans and octal modes as yaml.v3 does', () => {
    const cfg = decode(
      '---\n# nothing here\n---\nmachine:\n  install:\n    wipe: yes\n  files:\n    - content: x\n      permissions: 0644\n      path: /var/f\n      op: create\n',
    );
    const m = v1alpha1Of(cfg)!.machine!;
    expect(m.install!.wipe).toBe(true);
    expect(m.files![0]!.permissions).toBe(0o644);
  });

  it('keeps strings that look like numbers as written', () => {
    const cfg = decode('machine:\n  env:\n    VERSION: 1.10\n');
    expect(v1alpha1Of(cfg)!.machine!.env).toEqual({ VERSION: '1.10' });
  });

  it('records the line of every field', () => {
    const cfg = decode(
      'machine:\n  network:\n    interfaces:\n      - interface: eth0\n        addresses:\n          - 10.0.0.1/24\n',
    );
    const lines = cfg.documents[0]!.lines;
    expect(lines.get('machine.network.interfaces[0].addresses[0]')).toBe(6);
    expect(lines.get('machine.network.interfaces[0].interface')).toBe(4);
  });

  const typed: Record<string, string> = {
    HostnameConfig: 'apiVersion: v1alpha1\nkind: HostnameConfig\nhostname: node-1\nauto: "off"\n',
    LinkConfig:
      'apiVersion: v1alpha1\nkind: LinkConfig\nname: enp0s1\nup: true\nmtu: 9000\naddresses:\n    - address: 192.168.1.100/24\n    - address: 2001:db8::1/64\n      routePriority: 100\nroutes:\n    - destination: 10.3.5.0/24\n      gateway: 10.3.5.1\n    - gateway: fe80::1\nmulticast: true\n',
    DHCPv4Config:
      'apiVersion: v1alpha1\nkind: DHCPv4Config\nname: enp0s3\nrouteMetric: 512\nignoreHostname: true\nclientIdentifier: duid\nduidRaw: 00:01:00:01:23:45:67:89:ab:cd:ef:01:23:45\n',
    ResolverConfig:
      'apiVersion: v1alpha1\nkind: ResolverConfig\nnameservers:\n    - address: 10.0.0.1\n    - address: 1.1.1.1\n      protocol: DoT\n      tlsServerName: cloudflare-dns.com\nsearchDomains:\n    domains:\n        - example.org\n    disableDefault: true\nhostDNS:\n    enabled: true\n    forwardKubeDNSToHost: true\n    resolveMemberNames: false\n',
    StaticHostConfig:
      'apiVersion: v1alpha1\nkind: StaticHostConfig\nname: 10.5.0.2\nhostnames:\n    - example.org\n    - example.com\n',
    TimeSyncConfig:
      'apiVersion: v1alpha1\nkind: TimeSyncConfig\nenabled: true\nbootTimeout: 2m0s\nntp:\n    servers:\n        - time.cloudflare.com\n    useNTS: true\n',
    SysctlConfig:
      'apiVersion: v1alpha1\nkind: SysctlConfig\nparams:\n    net.ipv4.ip_forward: "1"\n    vm.max_map_count: "262144"\n',
    EnvironmentConfig:
      'apiVersion: v1alpha1\nkind: EnvironmentConfig\nvariables:\n    GRPC_GO_LOG_SEVERITY_LEVEL: error\n    https_proxy: http://proxy:3128\n',
    VolumeConfig:
      'apiVersion: v1alpha1\nkind: VolumeConfig\nname: EPHEMERAL\nprovisioning:\n    diskSelector:\n        match: disk.transport == "nvme"\n    grow: false\n    minSize: 10GiB\n    maxSize: 40GiB\nencryption:\n    provider: luks2\n    keys:\n        - slot: 0\n          tpm: {}\n',
    UserVolumeConfig:
      "apiVersion: v1alpha1\nkind: UserVolumeConfig\nname: secret-store\nprovisioning:\n    diskSelector:\n        match: '!system_disk'\n    minSize: 10GiB\nencryption:\n    provider: luks2\n    keys:\n        - slot: 0\n          tpm: {}\n        - slot: 1\n          static:\n            passphrase: topsecret\n    cipher: aes-xts-plain64\n",
    RawVolumeConfig:
      'apiVersion: v1alpha1\nkind: RawVolumeConfig\nname: ceph-osd\nprovisioning:\n    diskSelector:\n        match: disk.transport == "nvme"\n    maxSize: 50GiB\n    grow: false\n',
  };
  for (const [kind, src] of Object.entries(typed)) {
    it(`decodes ${kind}`, () => {
      const cfg = decode(src);
      expect(cfg.documents).toHaveLength(1);
      expect(cfg.documents[0]!.kind).toBe(kind);
    });
  }

  it('decodes the fields of typed documents into their interfaces', () => {
    const cfg = decode(Object.values(typed).join('---\n'));
    expect(documentOf(cfg, 'HostnameConfig')).toMatchObject({ hostname: 'node-1', auto: 'off' });
    const link = documentOf(cfg, 'LinkConfig', 'enp0s1')!;
    expect(link.mtu).toBe(9000);
    expect(link.addresses![1]).toEqual({ address: '2001:db8::1/64', routePriority: 100 });
    expect(link.routes![1]).toEqual({ gateway: 'fe80::1' });
    expect(documentOf(cfg, 'DHCPv4Config', 'enp0s3')!.routeMetric).toBe(512);
    expect(documentOf(cfg, 'ResolverConfig')!.nameservers![1]!.protocol).toBe('DoT');
    expect(documentsOf(cfg, 'StaticHostConfig')[0]!.name).toBe('10.5.0.2');
    expect(documentOf(cfg, 'TimeSyncConfig')!.ntp).toEqual({
      servers: ['time.cloudflare.com'],
      useNTS: true,
    });
    expect(documentOf(cfg, 'SysctlConfig')!.params!['vm.max_map_count']).toBe('262144');
    expect(documentOf(cfg, 'EnvironmentConfig')!.variables!.https_proxy).toBe('http://proxy:3128');
    expect(documentOf(cfg, 'VolumeConfig', 'EPHEMERAL')!.provisioning!.maxSize).toBe('40GiB');
    expect(
      documentOf(cfg, 'UserVolumeConfig', 'secret-store')!.encryption!.keys![1]!.static!.passphrase,
    ).toBe('topsecret');
    expect(documentOf(cfg, 'RawVolumeConfig', 'ceph-osd')!.provisioning).toEqual({
      diskSelector: { match: 'disk.transport == "nvme"' },
      maxSize: '50GiB',
      grow: false,
    });
  });
});
