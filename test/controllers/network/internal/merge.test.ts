// The merge rules of each network spec type, with upstream's merge test inputs.
import { describe, expect, it } from 'vitest';
import {
  mergeAddresses,
  mergeHostname,
  mergeOperators,
  mergeRoutes,
  mergeTimeServers,
} from '../../../../controllers/network/internal/merge-layers.js';
import { mergeLink, mergeLinks } from '../../../../controllers/network/internal/merge-link.js';
import { mergeResolvers } from '../../../../controllers/network/internal/merge-resolver.js';
import {
  addressSpecZero,
  BondMode,
  ConfigLayer,
  Family,
  type LinkSpecSpec,
  linkSpecZero,
  Operator,
  operatorSpecZero,
  RoutingTable,
  routeSpecZero,
} from '../../../../resources/network/index.js';

const L = ConfigLayer;

describe('mergeAddresses / mergeRoutes / mergeOperators', () => {
  const addr = (address: string, linkName: string, configLayer: ConfigLayer, priority = 0) => ({
    ...addressSpecZero(),
    address,
    linkName,
    family: address.includes(':') ? Family.Inet6 : Family.Inet4,
    configLayer,
    priority,
  });

  it('keeps every address once, the highest layer winning a duplicate', () => {
    const merged = mergeAddresses([
      addr('10.0.0.1/8', 'eth0', L.Cmdline, 1),
      addr('10.0.0.1/8', 'eth0', L.MachineConfiguration, 2),
      addr('10.0.0.1/8', 'eth0', L.Default, 3),
      addr('127.0.0.1/8', 'lo', L.Default),
      addr('fe80::1/64', 'eth0', L.Operator),
    ]);
    expect([...merged.keys()].sort()).toEqual(['eth0/10.0.0.1/8', 'eth0/fe80::1/64', 'lo/127.0.0.1/8']);
    expect(merged.get('eth0/10.0.0.1/8')?.priority).toBe(2);
  });

  it('keys routes by table, family, gateway, destination and priority', () => {
    const route = (gateway: string, priority: number, configLayer: ConfigLayer, mtu = 0) => ({
      ...routeSpecZero(),
      family: Family.Inet4,
      gateway,
      outLinkName: 'eth0',
      table: RoutingTable.Main,
      priority,
      configLayer,
      mtu,
    });
    const merged = mergeRoutes([
      route('10.5.0.1', 1024, L.Cmdline, 1),
      route('10.5.0.1', 1024, L.MachineConfiguration, 2),
      route('10.5.0.1', 1025, L.Default),
    ]);
    expect([...merged.keys()].sort()).toEqual(['inet4/10.5.0.1//1024', 'inet4/10.5.0.1//1025']);
    expect(merged.get('inet4/10.5.0.1//1024')?.mtu).toBe(2);
  });

  it('keeps the highest layer of each operator', () => {
    const op = (linkName: string, configLayer: ConfigLayer, routeMetric: number) => {
      const o = operatorSpecZero();
      o.operator = Operator.DHCP4;
      o.linkName = linkName;
      o.configLayer = configLayer;
      o.dhcp4.routeMetric = routeMetric;
      return o;
    };
    const merged = mergeOperators([
      op('eth0', L.Default, 1024),
      op('eth0', L.MachineConfiguration, 7),
      op('eth1', L.Default, 1024),
    ]);
    expect([...merged.keys()]).toEqual(['dhcp4/eth0', 'dhcp4/eth1']);
    expect(merged.get('dhcp4/eth0')?.dhcp4.routeMetric).toBe(7);
  });
});

describe('mergeHostname', () => {
  const h = (hostname: string, configLayer: ConfigLayer, domainname = '') => ({
    hostname,
    domainname,
    configLayer,
  });

  it('takes the highest layer that names a host', () => {
    const out = mergeHostname([h('foo', L.Default), h('', L.Cmdline), h('bar', L.Operator, 'example.com')]);
    expect(out.get('hostname')).toEqual(h('bar', L.Operator, 'example.com'));
    expect(mergeHostname([h('bar', L.Operator), h('foo', L.Default)]).get('hostname')?.hostname).toBe('bar');
  });

  it('publishes nothing without a hostname', () => {
    expect(mergeHostname([h('', L.Default)]).size).toBe(0);
  });
});

describe('mergeResolvers', () => {
  const r = (dnsServers: string[], configLayer: ConfigLayer, searchDomains: string[] = []) => ({
    dnsServers,
    configLayer,
    searchDomains,
  });

  it('appends one layer, replaces across layers, and the machine config wins', () => {
    const def = r(['1.1.1.1', '8.8.8.8'], L.Default);
    const dhcp1 = r(['1.1.2.0'], L.Operator);
    const dhcp2 = r(['1.1.2.1'], L.Operator);
    const stat = r(['2.2.2.2'], L.MachineConfiguration, ['example.com', 'example.org', 'example.net']);
    expect(mergeResolvers([def, dhcp1, dhcp2, stat]).get('resolvers')).toEqual(stat);
    expect(mergeResolvers([def, dhcp1, dhcp2]).get('resolvers')?.dnsServers).toEqual(['1.1.2.0', '1.1.2.1']);
  });

  it('keeps the IPv6 servers of a lower layer when the higher one has only IPv4', () => {
    const out = mergeResolvers([
      r(['1.1.1.1', '8.8.8.8'], L.Default),
      r(['1.1.2.0', 'fe80::1'], L.Platform),
      r(['1.1.2.1'], L.Operator),
    ]).get('resolvers');
    expect(out?.configLayer).toBe(L.Operator);
    expect(out?.dnsServers).toEqual(['1.1.2.1', 'fe80::1']);
  });

  it('lets an IPv6-only machine config replace the IPv4 defaults', () => {
    const out = mergeResolvers([
      r(['1.1.1.1', '8.8.8.8'], L.Default),
      r(['fe80::1'], L.MachineConfiguration),
    ]);
    expect(out.get('resolvers')?.dnsServers).toEqual(['fe80::1']);
  });

  it('puts a higher layer search domains first', () => {
    const out = mergeResolvers([
      r(['1.1.1.1'], L.Default, ['a.example']),
      r(['1.1.2.1'], L.Operator, ['b.example']),
    ]);
    expect(out.get('resolvers')?.searchDomains).toEqual(['b.example', 'a.example']);
  });

  it('publishes nothing without servers', () => {
    expect(mergeResolvers([r([], L.Default)]).size).toBe(0);
    expect(mergeResolvers([]).size).toBe(0);
  });
});

describe('mergeTimeServers', () => {
  const t = (ntpServers: string[], configLayer: ConfigLayer) => ({ ntpServers, configLayer });

  it('takes the highest layer, appending servers of one layer', () => {
    const out = mergeTimeServers([
      t(['time.cloudflare.com'], L.Default),
      t(['ntp.eth0'], L.Operator),
      t(['ntp.eth1'], L.Operator),
      t(['pool.ntp.org'], L.Cmdline),
    ]);
    expect(out.get('timeservers')).toEqual(t(['ntp.eth0', 'ntp.eth1'], L.Operator));
    expect(
      mergeTimeServers([t(['a'], L.Default), t(['b'], L.MachineConfiguration)]).get('timeservers')
        ?.ntpServers,
    ).toEqual(['b']);
  });
});

describe('mergeLinks', () => {
  const link = (name: string, configLayer: ConfigLayer, edit: (l: LinkSpecSpec) => void = () => {}) => {
    const l = linkSpecZero();
    l.name = name;
    l.configLayer = configLayer;
    edit(l);
    return l;
  };

  it('merges the layers of one link field by field', () => {
    const merged = mergeLinks([
      link('eth0', L.MachineConfiguration, (l) => {
        l.mtu = 9000;
      }),
      link('eth0', L.Default, (l) => {
        l.up = true;
        l.mtu = 1500;
      }),
      link('eth0', L.Cmdline, (l) => {
        l.bondSlave = { masterName: 'bond0', slaveIndex: 1 };
      }),
      link('lo', L.Default, (l) => {
        l.up = true;
      }),
    ]);
    expect([...merged.keys()]).toEqual(['eth0', 'lo']);
    const eth0 = merged.get('eth0')!;
    expect(eth0).toMatchObject({ up: true, mtu: 9000, configLayer: L.MachineConfiguration });
    expect(eth0.bondSlave).toEqual({ masterName: 'bond0', slaveIndex: 1 });
  });

  it('does not let a higher layer reset a field to zero', () => {
    const into = link('eth0', L.Default, (l) => {
      l.up = true;
      l.logical = true;
    });
    mergeLink(into, link('eth0', L.MachineConfiguration));
    expect(into).toMatchObject({ up: true, logical: true, configLayer: L.MachineConfiguration });
  });

  it('takes a bond master whole from the higher layer that sets one', () => {
    const into = link('bond0', L.Cmdline, (l) => {
      l.bondMaster.mode = BondMode.ActiveBackup;
      l.bondMaster.miimon = 100;
    });
    mergeLink(
      into,
      link('bond0', L.MachineConfiguration, (l) => {
        l.bondMaster.mode = BondMode.LACP8023AD;
      }),
    );
    expect(into.bondMaster.mode).toBe(BondMode.LACP8023AD);
    expect(into.bondMaster.miimon).toBe(0);
  });

  it('adds wireguard peers new by public key', () => {
    const peer = (publicKey: string) => ({
      publicKey,
      presharedKey: '',
      endpoint: '',
      persistentKeepaliveInterval: 0,
      allowedIPs: [],
    });
    const into = link('wg0', L.Platform, (l) => {
      l.wireguard.privateKey = 'priv';
      l.wireguard.listenPort = 51820;
      l.wireguard.peers = [peer('a')];
    });
    mergeLink(
      into,
      link('wg0', L.MachineConfiguration, (l) => {
        l.wireguard.firewallMark = 7;
        l.wireguard.peers = [peer('a'), peer('b')];
      }),
    );
    expect(into.wireguard).toMatchObject({ privateKey: 'priv', listenPort: 51820, firewallMark: 7 });
    expect(into.wireguard.peers.map((p) => p.publicKey)).toEqual(['a', 'b']);
  });
});
