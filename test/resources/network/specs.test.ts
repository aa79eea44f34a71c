// The network Spec types: ids, proto field numbers, round trips and YAML as upstream prints them.
import { describe, expect, it } from 'vitest';
import {
  AddressFlag,
  AddressSpec,
  addressID,
  BondMode,
  ConfigLayer,
  configLayerText,
  Family,
  HostnameSpec,
  LinkSpec,
  LinkType,
  layeredID,
  linkSpecZero,
  NETWORK_CONFIG_NAMESPACE,
  NETWORK_TYPES,
  Operator,
  OperatorSpec,
  operatorID,
  operatorSpecZero,
  ResolverSpec,
  RouteProtocol,
  RouteSpec,
  RouteType,
  RoutingTable,
  routeID,
  Scope,
  TimeServerSpec,
  VLANProtocol,
} from '../../../resources/network/index.js';
import { encodeSpec } from '../../../src/cosi/resource/protobuf/index.js';
import { decodeResource, encodeResource } from '../../../src/cosi/resource/protobuf/resource.js';
import { defaultRegistry } from '../../../src/cosi/resource/registry.js';
import type { ResourceType } from '../../../src/cosi/resource/typed.js';
import { marshalResourceYAML, specYAML, unmarshalResourceYAML } from '../../../src/cosi/resource/yaml.js';
import { field, wireFields } from './wire-fields.js';

const protoOf = <S>(t: ResourceType<S>, s: S): Uint8Array =>
  encodeSpec(t.codec.toProto ? t.codec.toProto(s) : s, t.codec.proto!);

function roundTrip<S>(t: ResourceType<S>, spec: S): void {
  const r = t.new(NETWORK_CONFIG_NAMESPACE, 'x', spec);
  const back = decodeResource(encodeResource(r));
  expect(t.is(back)).toBe(true);
  expect(back.spec).toEqual(spec);
  expect(t.codec.equal(back.spec as S, spec)).toBe(true);
  const fromYAML = unmarshalResourceYAML(marshalResourceYAML(r));
  expect(fromYAML.spec).toEqual(spec);
  const copy = t.codec.copy(spec);
  expect(copy).toEqual(spec);
  expect(t.codec.equal(copy, spec)).toBe(true);
}

describe('config layers and ids', () => {
  it('names layers and layered ids as upstream', () => {
    expect([0, 1, 2, 3, 4].map(configLayerText)).toEqual([
      'default',
      'cmdline',
      'platform',
      'operator',
      'configuration',
    ]);
    expect(layeredID(ConfigLayer.Cmdline, 'eth0')).toBe('cmdline/eth0');
    expect(configLayerText(7)).toBe('ConfigLayer(7)');
  });

  it('spells address, route and operator ids as upstream', () => {
    expect(addressID('eth0', '10.5.0.2/24')).toBe('eth0/10.5.0.2/24');
    expect(routeID(RoutingTable.Main, Family.Inet4, '', '10.5.0.1', 1024, 'eth0')).toBe(
      'inet4/10.5.0.1//1024',
    );
    expect(routeID(RoutingTable.Main, Family.Inet6, '', 'fe80::1', 1024, 'eth0')).toBe(
      'eth0/inet6/fe80::1//1024',
    );
    expect(routeID(100, Family.Inet4, '10.0.0.0/8', '', 0, 'eth0')).toBe('100/inet4//10.0.0.0/8/0');
    expect(routeID(RoutingTable.Local, Family.Inet4, '127.0.0.0/8', '', 0, 'lo')).toBe(
      'local/inet4//127.0.0.0/8/0',
    );
    expect(operatorID(Operator.DHCP4, 'eth0')).toBe('dhcp4/eth0');
    expect(operatorID(Operator.VIP, 'eth0', '10.5.0.10')).toBe('vip/eth0/10.5.0.10');
  });
});

describe('definitions', () => {
  it.each([
    [LinkSpec, 'LinkSpecs.net.talos.dev', ['linkspec', 'ls'], 'sensitive'],
    [AddressSpec, 'AddressSpecs.net.talos.dev', ['addressspec', 'as'], ''],
    [RouteSpec, 'RouteSpecs.net.talos.dev', ['routespec', 'rs'], ''],
    [HostnameSpec, 'HostnameSpecs.net.talos.dev', ['hostnamespec', 'hs'], ''],
    [ResolverSpec, 'ResolverSpecs.net.talos.dev', ['resolverspec', 'rs'], ''],
    [TimeServerSpec, 'TimeServerSpecs.net.talos.dev', ['timeserverspec', 'tss'], ''],
    [OperatorSpec, 'OperatorSpecs.net.talos.dev', ['operatorspec', 'os'], 'sensitive'],
  ] as const)('%#: %s', (t, type, aliases, sensitivity) => {
    expect(t.type).toBe(type);
    expect(t.defaultNamespace).toBe('network');
    expect(t.definition.aliases).toEqual(aliases);
    expect(t.definition.sensitivity ?? '').toBe(sensitivity);
    expect(NETWORK_TYPES as readonly unknown[]).toContain(t);
    expect(defaultRegistry.lookup(type)).toBe(t);
  });
});

const fullLink = () => ({
  ...linkSpecZero(),
  name: 'bond0',
  logical: true,
  up: true,
  mtu: 9000,
  kind: 'bond',
  type: LinkType.Ether,
  hardwareAddress: 'aa:bb:cc:00:01:02',
  parentName: 'eth9',
  bondSlave: { masterName: 'bondX', slaveIndex: 2 },
  bridgeSlave: { masterName: 'br0' },
  vrfSlave: { masterName: 'vrf0' },
  vlan: { vid: 42, protocol: VLANProtocol.Q8021 },
  bondMaster: {
    ...linkSpecZero().bondMaster,
    mode: BondMode.LACP8023AD,
    hashPolicy: 1,
    lacpRate: 1,
    primaryIndex: 0,
    miimon: 100,
    useCarrier: true,
    arpIPTargets: ['10.0.0.1'],
    nsIP6Targets: ['fd00::1'],
    adLACPActive: 1,
    missedMax: 3,
  },
  bridgeMaster: { stp: { enabled: true }, vlan: { filteringEnabled: true } },
  vrfMaster: { table: 100 },
  wireguard: {
    privateKey: 'priv',
    publicKey: 'pub',
    listenPort: 51820,
    firewallMark: 1,
    peers: [
      {
        publicKey: 'peer',
        presharedKey: 'psk',
        endpoint: '1.2.3.4:51820',
        persistentKeepaliveInterval: 25_000,
        allowedIPs: ['10.1.0.0/16', 'fd01::/64'],
      },
    ],
  },
  configLayer: ConfigLayer.Platform,
  multicast: false,
});

describe('LinkSpec', () => {
  it('round-trips a fully populated spec through proto and YAML', () => roundTrip(LinkSpec, fullLink()));

  it('numbers fields as network.proto', () => {
    const b = protoOf(LinkSpec, fullLink());
    expect(field(b, 1).value).toEqual(new TextEncoder().encode('bond0'));
    expect(field(b, 4).value).toBe(9000n);
    expect(field(b, 6).value).toBe(1n);
    expect(Buffer.from(field(b, 15).value as Uint8Array).toString('hex')).toBe('aabbcc000102');
    // a set multicast=false is present on the wire (upstream's *bool)
    expect(field(b, 16).value).toBe(0n);
    expect(field(b, 14).value).toBe(2n);
    expect(wireFields(field(b, 18).value as Uint8Array)[0]!.no).toBe(1);
    const bond = field(b, 11).value as Uint8Array;
    expect(field(bond, 1).value).toBe(4n);
    expect(field(bond, 6).value).toBe(0n); // primary index 0 is set, so written
    expect(field(bond, 28).value).toBe(3n);
    const wg = field(b, 13).value as Uint8Array;
    expect(field(wg, 3).value).toBe(51820n);
    const peer = field(wg, 5).value as Uint8Array;
    expect(field(field(peer, 4).value as Uint8Array, 1).value).toBe(25n); // Duration.seconds
    expect(
      Buffer.from(field(field(peer, 5).value as Uint8Array, 1).value as Uint8Array).toString('hex'),
    ).toBe('0a010000');
  });

  it('leaves an unset multicast out of the wire and the YAML', () => {
    const s = { ...linkSpecZero(), name: 'eth0', up: true, type: LinkType.Ether };
    expect(wireFields(protoOf(LinkSpec, s)).some((f) => f.no === 16)).toBe(false);
    expect(specYAML(LinkSpec.new('network', 'eth0', s))).toBe(
      'name: eth0\nlogical: false\nup: true\nmtu: 0\nkind: ""\ntype: ether\nlayer: default\n',
    );
  });

  it('renders the bond slave inline and the kinds by their text forms', () => {
    const s = {
      ...linkSpecZero(),
      name: 'eth1',
      up: true,
      type: LinkType.Ether,
      hardwareAddress: 'aa:bb:cc:00:01:02',
      bondSlave: { masterName: 'bond0', slaveIndex: 1 },
      vlan: { vid: 5, protocol: VLANProtocol.Q8021 },
      configLayer: ConfigLayer.MachineConfiguration,
      multicast: true,
    };
    expect(specYAML(LinkSpec.new('network', 'eth1', s))).toBe(
      [
        'name: eth1',
        'logical: false',
        'up: true',
        'mtu: 0',
        'kind: ""',
        'type: ether',
        'hardwareAddr: aa:bb:cc:00:01:02',
        'masterName: bond0',
        'slaveIndex: 1',
        'vlan:',
        '    vlanID: 5',
        '    vlanProtocol: 802.1q',
        'layer: configuration',
        'multicast: true',
        '',
      ].join('\n'),
    );
  });
});

const fullAddress = () => ({
  address: '10.5.0.2/24',
  linkName: 'eth0',
  family: Family.Inet4,
  scope: Scope.Global,
  flags: AddressFlag.Permanent,
  announceWithARP: true,
  priority: 7,
  configLayer: ConfigLayer.Operator,
});

describe('AddressSpec', () => {
  it('round-trips and numbers fields as network.proto', () => {
    roundTrip(AddressSpec, fullAddress());
    roundTrip(AddressSpec, {
      ...fullAddress(),
      address: 'fd00::2/64',
      family: Family.Inet6,
      scope: Scope.Link,
    });
    const b = protoOf(AddressSpec, fullAddress());
    const prefix = field(b, 1).value as Uint8Array;
    expect(Buffer.from(field(prefix, 1).value as Uint8Array).toString('hex')).toBe('0a050002');
    expect(field(prefix, 2).value).toBe(24n);
    expect(field(b, 3).value).toBe(2n);
    expect(field(b, 5).value).toBe(128n);
    expect(field(b, 6).value).toBe(1n);
    expect(field(b, 7).value).toBe(3n);
    expect(field(b, 8).value).toBe(7n);
  });

  it('prints upstream text forms in upstream key order', () => {
    expect(specYAML(AddressSpec.new('network', 'eth0/10.5.0.2/24', fullAddress()))).toBe(
      'address: 10.5.0.2/24\nlinkName: eth0\nfamily: inet4\nscope: global\nflags: permanent\nannounceWithARP: true\npriority: 7\nlayer: operator\n',
    );
    const lo = {
      ...fullAddress(),
      address: '127.0.0.1/8',
      linkName: 'lo',
      scope: Scope.Host,
      announceWithARP: false,
      priority: 0,
      configLayer: ConfigLayer.Default,
    };
    expect(specYAML(AddressSpec.new('network', 'lo/127.0.0.1/8', lo))).toBe(
      'address: 127.0.0.1/8\nlinkName: lo\nfamily: inet4\nscope: host\nflags: permanent\nlayer: default\n',
    );
  });
});

const defaultRoute = () => ({
  family: Family.Inet4,
  destination: '',
  source: '',
  gateway: '10.5.0.1',
  outLinkName: 'eth0',
  table: RoutingTable.Main,
  priority: 1024,
  scope: Scope.Global,
  type: RouteType.Unicast,
  flags: 0,
  protocol: RouteProtocol.Static,
  configLayer: ConfigLayer.MachineConfiguration,
  mtu: 0,
});

describe('RouteSpec', () => {
  it('round-trips a fully populated spec and numbers fields as network.proto', () => {
    const full = {
      ...defaultRoute(),
      destination: '192.168.0.0/16',
      source: '10.5.0.2',
      flags: 256,
      mtu: 1400,
    };
    roundTrip(RouteSpec, full);
    roundTrip(RouteSpec, defaultRoute());
    const b = protoOf(RouteSpec, full);
    expect(field(b, 1).value).toBe(2n);
    expect(Buffer.from(field(field(b, 3).value as Uint8Array, 1).value as Uint8Array).toString('hex')).toBe(
      '0a050002',
    );
    expect(field(b, 5).value).toEqual(new TextEncoder().encode('eth0'));
    expect(field(b, 6).value).toBe(254n);
    expect(field(b, 7).value).toBe(1024n);
    expect(field(b, 9).value).toBe(1n);
    expect(field(b, 10).value).toBe(256n);
    expect(field(b, 11).value).toBe(4n);
    expect(field(b, 12).value).toBe(4n);
    expect(field(b, 13).value).toBe(1400n);
  });

  it('prints a default route as upstream', () => {
    expect(specYAML(RouteSpec.new('network', 'inet4/10.5.0.1//1024', defaultRoute()))).toBe(
      [
        'family: inet4',
        'dst: ""',
        'src: ""',
        'gateway: 10.5.0.1',
        'outLinkName: eth0',
        'table: main',
        'priority: 1024',
        'scope: global',
        'type: unicast',
        'flags: ""',
        'protocol: static',
        'layer: configuration',
        '',
      ].join('\n'),
    );
  });
});

describe('HostnameSpec, ResolverSpec, TimeServerSpec', () => {
  it('round-trip and print upstream keys', () => {
    const h = { hostname: 'cp1', domainname: 'example.com', configLayer: ConfigLayer.Platform };
    roundTrip(HostnameSpec, h);
    expect(specYAML(HostnameSpec.new('network', 'hostname', h))).toBe(
      'hostname: cp1\ndomainname: example.com\nlayer: platform\n',
    );
    expect(field(protoOf(HostnameSpec, h), 3).value).toBe(2n);

    const r = {
      dnsServers: ['1.1.1.1', '2606:4700:4700::1111'],
      configLayer: ConfigLayer.Default,
      searchDomains: ['example.com'],
    };
    roundTrip(ResolverSpec, r);
    expect(specYAML(ResolverSpec.new('network', 'resolvers', r))).toBe(
      'dnsServers:\n    - 1.1.1.1\n    - 2606:4700:4700::1111\nlayer: default\nsearchDomains:\n    - example.com\n',
    );
    expect(specYAML(ResolverSpec.new('network', 'resolvers', ResolverSpec.codec.empty()))).toBe(
      'dnsServers: []\nlayer: default\n',
    );
    expect(field(protoOf(ResolverSpec, r), 3).value).toEqual(new TextEncoder().encode('example.com'));

    const t = { ntpServers: ['time.cloudflare.com'], configLayer: ConfigLayer.Cmdline };
    roundTrip(TimeServerSpec, t);
    expect(specYAML(TimeServerSpec.new('network', 'timeservers', t))).toBe(
      'timeServers:\n    - time.cloudflare.com\nlayer: cmdline\n',
    );
  });
});

describe('OperatorSpec', () => {
  const full = () => {
    const s = operatorSpecZero();
    s.operator = Operator.VIP;
    s.linkName = 'eth0';
    s.requireUp = true;
    s.dhcp4 = {
      routeMetric: 1024,
      skipHostnameRequest: true,
      clientIdentifier: { clientIdentifier: 2, duidRawHex: '0001' },
    };
    s.dhcp6 = {
      routeMetric: 2048,
      skipHostnameRequest: false,
      clientIdentifier: { clientIdentifier: 1, duidRawHex: '' },
    };
    s.vip = {
      ip: '10.5.0.10',
      gratuitousARP: true,
      equinixMetal: { projectID: 'p', deviceID: 'd', apiToken: 't' },
      hcloud: { deviceID: 12, networkID: 34, apiToken: 'h' },
    };
    s.configLayer = ConfigLayer.Operator;
    return s;
  };

  it('round-trips and numbers the DHCP6 fields from 2, as network.proto', () => {
    roundTrip(OperatorSpec, full());
    const b = protoOf(OperatorSpec, full());
    const dhcp6 = field(b, 5).value as Uint8Array;
    expect(field(dhcp6, 2).value).toBe(2048n);
    expect(field(field(dhcp6, 4).value as Uint8Array, 1).value).toBe(1n);
    const vip = field(b, 6).value as Uint8Array;
    expect(field(field(vip, 4).value as Uint8Array, 2).value).toBe(34n);
    expect(field(b, 7).value).toBe(3n);
  });

  it('prints a DHCP4 operator as upstream', () => {
    const s = operatorSpecZero();
    s.linkName = 'eth0';
    s.requireUp = true;
    s.dhcp4 = {
      routeMetric: 1024,
      skipHostnameRequest: false,
      clientIdentifier: { clientIdentifier: 1, duidRawHex: '' },
    };
    expect(specYAML(OperatorSpec.new('network', 'dhcp4/eth0', s))).toBe(
      'operator: dhcp4\nlinkName: eth0\nrequireUp: true\ndhcp4:\n    routeMetric: 1024\n    clientIdentifier:\n        clientIdentifier: mac\nlayer: default\n',
    );
  });
});
