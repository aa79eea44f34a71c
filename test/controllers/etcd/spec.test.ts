import { describe, expect, it } from 'vitest';
import { etcdConfigOf } from '../../../controllers/etcd/config.js';
import { endpointHost, etcdServiceSpec } from '../../../controllers/etcd/service.js';
import { etcdSpecOf } from '../../../controllers/etcd/spec.js';

describe('etcd.ConfigController and etcd.SpecController transforms', () => {
  it('splits subnets into valid and excluded ones', () => {
    expect(
      etcdConfigOf({ advertisedSubnets: ['10.0.0.0/8', '!10.0.0.5/32'], extraArgs: { a: '1' } }),
    ).toEqual({
      advertiseValidSubnets: ['10.0.0.0/8'],
      advertiseExcludeSubnets: ['10.0.0.5/32'],
      listenValidSubnets: [],
      listenExcludeSubnets: [],
      image: '',
      extraArgs: { a: '1' },
    });
  });

  it('advertises the first routed address, or every one in the subnets, and listens everywhere', () => {
    const cfg = etcdConfigOf({});
    expect(etcdSpecOf(cfg, 'n1', ['10.0.0.5', '192.168.1.2'])).toEqual({
      name: 'n1',
      advertisedAddresses: ['10.0.0.5'],
      listenPeerAddresses: ['0.0.0.0'],
      listenClientAddresses: ['0.0.0.0'],
      image: '',
      extraArgs: {},
    });
    const sub = etcdConfigOf({
      advertisedSubnets: ['10.0.0.0/8', '!10.0.0.5'],
      listenSubnets: ['192.168.0.0/16'],
    });
    expect(etcdSpecOf(sub, 'n1', ['10.0.0.5', '10.1.1.1', '10.2.2.2', '192.168.1.2'])).toMatchObject({
      advertisedAddresses: ['10.1.1.1', '10.2.2.2'],
      listenPeerAddresses: ['192.168.1.2'],
      listenClientAddresses: ['127.0.0.1', '192.168.1.2'],
    });
    expect(etcdSpecOf(cfg, 'n1', ['fd00::5'])).toMatchObject({ listenPeerAddresses: ['::'] });
    expect(etcdSpecOf(sub, 'n1', ['172.16.0.1'])).toBeUndefined();
  });
});

describe('etcdServiceSpec', () => {
  const pair = (n: string) => ({ crt: `${n}-crt`, key: `${n}-key` });
  const base = {
    spec: {
      name: 'n1',
      advertisedAddresses: ['fd00::1'],
      listenPeerAddresses: ['::'],
      listenClientAddresses: ['::'],
      image: '',
      extraArgs: {
        'election-timeout': '5000',
        'data-dir': '/elsewhere',
        'advertise-client-urls': 'https://x:2379',
      },
    },
    certs: { etcd: pair('server'), etcdPeer: pair('peer'), etcdAdmin: pair('admin'), etcdAPIServer: null },
    ca: 'ca-crt',
    bootstrap: undefined,
    endpoint: 'https://[fd00::1]:6443',
    paths: {
      etcd: '/usr/bin/etcd',
      etcdutl: '/usr/bin/etcdutl',
      dataDir: '/var/lib/etcd',
      secretsDir: '/system/secrets/etcd',
    },
  };

  it('pins upstream’s fixed arguments, lets extraArgs override the others, and writes the PKI files', () => {
    const s = etcdServiceSpec(base);
    expect(s.args).toContain('--data-dir=/var/lib/etcd');
    expect(s.args).not.toContain('--data-dir=/elsewhere');
    expect(s.args).toContain('--listen-peer-urls=https://[::]:2380');
    expect(s.args).toContain('--initial-advertise-peer-urls=https://[fd00::1]:2380');
    expect(s.args).toContain('--advertise-client-urls=https://x:2379');
    expect(s.args).toContain('--election-timeout=5000');
    expect(s.args).toContain('--peer-client-cert-auth=true');
    expect(s.uid).toBe(60);
    expect(s.files.map((f) => [f.path, f.mode])).toEqual([
      ['/system/secrets/etcd/ca.crt', 0o400],
      ['/system/secrets/etcd/server.crt', 0o400],
      ['/system/secrets/etcd/server.key', 0o400],
      ['/system/secrets/etcd/peer.crt', 0o400],
      ['/system/secrets/etcd/peer.key', 0o400],
      ['/system/secrets/etcd/admin.crt', 0o400],
      ['/system/secrets/etcd/admin.key', 0o400],
    ]);
    expect(s.options).toMatchObject({ joinHost: 'fd00::1', localEndpoint: 'https://[::1]:2379', name: 'n1' });
    expect(s.options.bootstrap).toBeUndefined();
    const boot = etcdServiceSpec({
      ...base,
      bootstrap: { recoverFromSnapshot: true, recoverSkipHashCheck: false },
    });
    expect(boot.options).toMatchObject({ bootstrap: 'true', recover: 'true' });
  });

  it('reads the host of the control-plane endpoint', () => {
    expect(endpointHost('https://10.5.0.2:6443')).toBe('10.5.0.2');
    expect(endpointHost('https://cp.example.org')).toBe('cp.example.org');
    expect(endpointHost('not a url')).toBeUndefined();
    expect(endpointHost(undefined)).toBeUndefined();
  });
});
