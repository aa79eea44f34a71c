// The network Status types and the rest: definitions, round trips, field numbers, YAML and table columns.
import { describe, expect, it } from 'vitest';
import {
  AddressFlag,
  AddressStatus,
  DeviceConfigSpec,
  Family,
  HardwareAddr,
  LinkFlag,
  LinkStatus,
  LinkType,
  linkStatusPhysical,
  linkStatusZero,
  NETWORK_TYPES,
  NetworkStatus,
  NodeAddress,
  NodeAddressFilter,
  OperationalState,
  ResolverStatus,
  RouteProtocol,
  RouteStatus,
  RouteType,
  RoutingTable,
  Scope,
  TimeServerStatus,
} from '../../../resources/network/index.js';
import { renderTable } from '../../../src/cosi/resource/output/table.js';
import { encodeSpec } from '../../../src/cosi/resource/protobuf/index.js';
import { decodeResource, encodeResource } from '../../../src/cosi/resource/protobuf/resource.js';
import { defaultRegistry } from '../../../src/cosi/resource/registry.js';
import type { ResourceType } from '../../../src/cosi/resource/typed.js';
import { marshalResourceYAML, specYAML, unmarshalResourceYAML } from '../../../src/cosi/resource/yaml.js';
import { field } from './wire-fields.js';

const protoOf = <S>(t: ResourceType<S>, s: S): Uint8Array =>
  encodeSpec(t.codec.toProto ? t.codec.toProto(s) : s, t.codec.proto!);

function roundTrip<S>(t: ResourceType<S>, spec: S, yamlSpec: S = spec): void {
  const r = t.new('network', 'x', spec);
  const back = decodeResource(encodeResource(r));
  expect(t.is(back)).toBe(true);
  expect(back.spec).toEqual(spec);
  expect(t.codec.equal(back.spec as S, spec)).toBe(true);
  expect(unmarshalResourceYAML(marshalResourceYAML(r)).spec).toEqual(yamlSpec);
  expect(t.codec.equal(t.codec.copy(spec), spec)).toBe(true);
}

/** table is the output of `talosctl get` for one resource: the header and the row, split on columns. */
function table<S>(t: ResourceType<S>, id: string, spec: S): string[] {
  const out = renderTable(t.definition, [{ node: '', resource: t.new(t.defaultNamespace, id, spec) }]);
  return out
    .split('\n')[1]!
    .trim()
    .split(/\s{3,}/);
}

const eth0 = () => ({
  ...linkStatusZero(),
  alias: 'lan',
  altNames: ['enp0s3'],
  index: 2,
  type: LinkType.Ether,
  linkIndex: 0,
  flags: LinkFlag.Up | LinkFlag.Broadcast | LinkFlag.Running | LinkFlag.Multicast | LinkFlag.LowerUp,
  hardwareAddr: '52:54:00:12:34:56',
  permanentAddr: '52:54:00:12:34:56',
  broadcastAddr: 'ff:ff:ff:ff:ff:ff',
  mtu: 1500,
  queueDisc: 'pfifo_fast',
  operationalState: OperationalState.Up,
  busPath: '0000:00:03.0',
  pciID: '8086:100E',
  driver: 'e1000',
  driverVersion: '6.1.0',
  firmwareVersion: 'N/A',
  productID: '0x100e',
  vendorID: '0x8086',
  product: '82540EM Gigabit Ethernet Controller',
  vendor: 'Intel Corporation',
  linkState: true,
  speedMegabits: 1000,
  port: 0,
  duplex: 1,
});

describe('definitions', () => {
  it.each([
    [LinkStatus, 'LinkStatuses.net.talos.dev', ['link', 'links', 'linkstatus', 'ls']],
    [AddressStatus, 'AddressStatuses.net.talos.dev', ['address', 'addresses', 'addressstatus', 'as']],
    [RouteStatus, 'RouteStatuses.net.talos.dev', ['route', 'routes', 'routestatus', 'rs']],
    [ResolverStatus, 'ResolverStatuses.net.talos.dev', ['resolvers', 'resolverstatus', 'rs']],
    [
      TimeServerStatus,
      'TimeServerStatuses.net.talos.dev',
      ['timeserver', 'timeservers', 'timeserverstatus', 'tss'],
    ],
    [NetworkStatus, 'NetworkStatuses.net.talos.dev', ['netstatus', 'netstatuses', 'networkstatus', 'ns']],
    [NodeAddressFilter, 'NodeAddressFilters.net.talos.dev', ['nodeaddressfilter', 'naf', 'nafs']],
    [HardwareAddr, 'HardwareAddresses.net.talos.dev', ['hardwareaddress', 'ha', 'has']],
    [DeviceConfigSpec, 'DeviceConfigSpecs.net.talos.dev', ['deviceconfigspec', 'dcs']],
  ] as const)('%#: %s', (t, type, aliases) => {
    expect(t.type).toBe(type);
    expect(t.defaultNamespace).toBe('network');
    expect(t.definition.aliases).toEqual(aliases);
    expect(NETWORK_TYPES as readonly unknown[]).toContain(t);
    expect(defaultRegistry.lookup(type)).toBe(t);
  });

  it('marks DeviceConfigSpec sensitive, as upstream', () => {
    expect(DeviceConfigSpec.definition.sensitivity).toBe('sensitive');
    expect(LinkStatus.definition.sensitivity).toBeUndefined();
  });
});

describe('LinkStatus', () => {
  it('round-trips and numbers fields as network.proto', () => {
    const s = eth0();
    s.vlan = { vid: 10, protocol: 0x8100 };
    s.bridgeMaster = { stp: { enabled: true }, vlan: { filteringEnabled: false } };
    s.vrfMaster = { table: 10 };
    s.bondMaster = { ...s.bondMaster, mode: 1, miimon: 100, primaryIndex: 3 };
    s.wireguard = { privateKey: '', publicKey: 'pub', listenPort: 1, firewallMark: 2, peers: [] };
    s.masterIndex = 7;
    s.kind = 'vlan';
    s.slaveKind = 'bond';
    roundTrip(LinkStatus, s);
    const b = protoOf(LinkStatus, s);
    expect(field(b, 4).value).toBe(BigInt(s.flags));
    expect(Buffer.from(field(b, 5).value as Uint8Array).toString('hex')).toBe('525400123456');
    expect(Buffer.from(field(b, 6).value as Uint8Array).toString('hex')).toBe('ffffffffffff');
    expect(field(b, 10).value).toBe(6n);
    expect(field(b, 23).value).toBe(1000n);
    expect(field(b, 25).value).toBe(1n);
    expect(Buffer.from(field(b, 30).value as Uint8Array).toString('hex')).toBe('525400123456');
    expect(new TextDecoder().decode(field(b, 31).value as Uint8Array)).toBe('lan');
    expect(new TextDecoder().decode(field(b, 32).value as Uint8Array)).toBe('enp0s3');
    expect(field(field(b, 33).value as Uint8Array, 1).value).toBe(10n);
  });

  it('prints as upstream: text forms, upstream key order, empty strings left out', () => {
    const s = { ...eth0(), alias: '', altNames: [], busPath: '', pciID: '', firmwareVersion: '' };
    expect(specYAML(LinkStatus.new('network', 'eth0', s))).toBe(
      [
        'index: 2',
        'type: ether',
        'linkIndex: 0',
        'flags: UP,BROADCAST,RUNNING,MULTICAST,LOWER_UP',
        'hardwareAddr: "52:54:00:12:34:56"',
        'permanentAddr: "52:54:00:12:34:56"',
        'broadcastAddr: ff:ff:ff:ff:ff:ff',
        'mtu: 1500',
        'queueDisc: pfifo_fast',
        'operationalState: up',
        'kind: ""',
        'slaveKind: ""',
        'driver: e1000',
        'driverVersion: 6.1.0',
        'productID: "0x100e"',
        'vendorID: "0x8086"',
        'product: 82540EM Gigabit Ethernet Controller',
        'vendor: Intel Corporation',
        'linkState: true',
        'speedMbit: 1000',
        'port: TwistedPair',
        'duplex: Full',
        '',
      ].join('\n'),
    );
    const lo = {
      ...linkStatusZero(),
      index: 1,
      type: LinkType.Loopback,
      flags: LinkFlag.Up | LinkFlag.Loopback | LinkFlag.Running | LinkFlag.LowerUp,
      hardwareAddr: '00:00:00:00:00:00',
      mtu: 65536,
      operationalState: OperationalState.Unknown,
      duplex: 255,
    };
    const y = specYAML(LinkStatus.new('network', 'lo', lo));
    expect(y).toContain('type: loopback\n');
    expect(y).toContain('flags: UP,LOOPBACK,RUNNING,LOWER_UP\n');
    expect(y).toContain('operationalState: unknown\n');
    expect(y).toContain('broadcastAddr: ""\n');
    expect(y).toContain('duplex: Unknown\n');
  });

  it("fills talosctl's columns from the YAML", () => {
    expect(renderTable(LinkStatus.definition, []).split(/\s{3,}/)).toEqual([
      'NODE',
      'NAMESPACE',
      'TYPE',
      'ID',
      'VERSION',
      'ALIAS',
      'TYPE',
      'KIND',
      'HW ADDR',
      'OPER STATE',
      'LINK STATE\n',
    ]);
    expect(table(LinkStatus, 'eth0', { ...eth0(), kind: 'vlan' })).toEqual([
      'network',
      'LinkStatus',
      'eth0',
      'undefined',
      'lan',
      'ether',
      'vlan',
      '52:54:00:12:34:56',
      'up',
      'true',
    ]);
  });

  it('tells physical links from logical ones', () => {
    expect(linkStatusPhysical(eth0())).toBe(true);
    expect(linkStatusPhysical({ ...eth0(), kind: 'bond' })).toBe(false);
  });
});

describe('AddressStatus', () => {
  const s = () => ({
    address: '10.5.0.2/24',
    local: '10.5.0.2',
    broadcast: '10.5.0.255',
    anycast: '10.5.0.3',
    multicast: '224.0.0.1',
    linkIndex: 2,
    linkName: 'eth0',
    family: Family.Inet4,
    scope: Scope.Global,
    flags: AddressFlag.Permanent,
    priority: 0,
  });

  it('round-trips with its extra addresses and numbers fields as network.proto', () => {
    // the YAML cannot carry the extra addresses (upstream drops them too), the wire does
    roundTrip(AddressStatus, s(), { ...s(), local: '', broadcast: '', anycast: '', multicast: '' });
    const b = protoOf(AddressStatus, s());
    expect(Buffer.from(field(field(b, 3).value as Uint8Array, 1).value as Uint8Array).toString('hex')).toBe(
      '0a0500ff',
    );
    expect(field(b, 6).value).toBe(2n);
    expect(field(b, 8).value).toBe(2n);
    expect(field(b, 10).value).toBe(128n);
  });

  it('prints as upstream, whose yaml always drops the omitempty addresses', () => {
    expect(specYAML(AddressStatus.new('network', 'eth0/10.5.0.2/24', s()))).toBe(
      'address: 10.5.0.2/24\nlinkIndex: 2\nlinkName: eth0\nfamily: inet4\nscope: global\nflags: permanent\npriority: 0\n',
    );
    expect(table(AddressStatus, 'eth0/10.5.0.2/24', s()).slice(-2)).toEqual(['10.5.0.2/24', 'eth0']);
  });
});

describe('RouteStatus', () => {
  const s = () => ({
    family: Family.Inet4,
    destination: '',
    source: '10.5.0.2',
    gateway: '10.5.0.1',
    outLinkIndex: 2,
    outLinkName: 'eth0',
    table: RoutingTable.Main,
    priority: 1024,
    scope: Scope.Global,
    type: RouteType.Unicast,
    flags: 0,
    protocol: RouteProtocol.Static,
    mtu: 1400,
  });

  it('round-trips and numbers fields as network.proto', () => {
    roundTrip(RouteStatus, s());
    roundTrip(RouteStatus, {
      ...s(),
      family: Family.Inet6,
      destination: 'fd00::/64',
      gateway: '',
      source: '',
    });
    const b = protoOf(RouteStatus, s());
    expect(field(b, 5).value).toBe(2n);
    expect(field(b, 7).value).toBe(254n);
    expect(field(b, 8).value).toBe(1024n);
    expect(field(b, 12).value).toBe(4n);
    expect(field(b, 13).value).toBe(1400n);
  });

  it('prints as upstream and fills the columns', () => {
    expect(specYAML(RouteStatus.new('network', 'x', s()))).toBe(
      [
        'family: inet4',
        'dst: ""',
        'src: 10.5.0.2',
        'gateway: 10.5.0.1',
        'outLinkIndex: 2',
        'outLinkName: eth0',
        'table: main',
        'priority: 1024',
        'scope: global',
        'type: unicast',
        'flags: ""',
        'protocol: static',
        'mtu: 1400',
        '',
      ].join('\n'),
    );
    const local = { ...s(), destination: '127.0.0.0/8', gateway: '', table: RoutingTable.Local, priority: 0 };
    const y = specYAML(RouteStatus.new('network', 'x', local));
    expect(y).toContain('table: local\n');
    expect(y).toContain('priority: 0\n');
    expect(table(RouteStatus, 'x', s()).slice(-3)).toEqual(['10.5.0.1', 'eth0', '1024']);
  });
});

describe('the smaller statuses', () => {
  it('ResolverStatus and TimeServerStatus', () => {
    const r = { dnsServers: ['1.1.1.1', 'fd00::53'], searchDomains: ['example.com'] };
    roundTrip(ResolverStatus, r);
    expect(
      specYAML(ResolverStatus.new('network', 'resolvers', { dnsServers: ['1.1.1.1'], searchDomains: [] })),
    ).toBe('dnsServers:\n    - 1.1.1.1\nsearchDomains: []\n');
    expect(table(ResolverStatus, 'resolvers', r).slice(-2)).toEqual([
      '["1.1.1.1","fd00::53"]',
      '["example.com"]',
    ]);
    const t = { ntpServers: ['time.cloudflare.com'] };
    roundTrip(TimeServerStatus, t);
    expect(specYAML(TimeServerStatus.new('network', 'timeservers', t))).toBe(
      'timeServers:\n    - time.cloudflare.com\n',
    );
    expect(table(TimeServerStatus, 'timeservers', t).at(-1)).toBe('["time.cloudflare.com"]');
  });

  it('NetworkStatus', () => {
    const s = { addressReady: true, connectivityReady: true, hostnameReady: false, etcFilesReady: true };
    roundTrip(NetworkStatus, s);
    expect(field(protoOf(NetworkStatus, s), 4).value).toBe(1n);
    expect(specYAML(NetworkStatus.new('network', 'status', s))).toBe(
      'addressReady: true\nconnectivityReady: true\nhostnameReady: false\netcFilesReady: true\n',
    );
    expect(table(NetworkStatus, 'status', s).slice(-4)).toEqual(['true', 'true', 'false', 'true']);
  });

  it('NodeAddress carries the sort algorithm', () => {
    const s = { addresses: ['10.5.0.2/24'], sortAlgorithm: 1 };
    roundTrip(NodeAddress, s);
    expect(field(protoOf(NodeAddress, s), 2).value).toBe(1n);
    expect(specYAML(NodeAddress.new('network', 'current', s))).toBe(
      'addresses:\n    - 10.5.0.2/24\nsortAlgorithm: v2\n',
    );
    expect(NodeAddress.codec.equal({ addresses: [] }, { addresses: [], sortAlgorithm: 0 })).toBe(true);
    expect(table(NodeAddress, 'current', s).slice(-2)).toEqual(['["10.5.0.2/24"]', 'v2']);
  });

  it('NodeAddressFilter, HardwareAddr and DeviceConfigSpec', () => {
    const f = { includeSubnets: ['10.0.0.0/8'], excludeSubnets: ['10.244.0.0/16', 'fd00::/8'] };
    roundTrip(NodeAddressFilter, f);
    expect(specYAML(NodeAddressFilter.new('network', 'no-k8s', f))).toBe(
      'includeSubnets:\n    - 10.0.0.0/8\nexcludeSubnets:\n    - 10.244.0.0/16\n    - fd00::/8\n',
    );
    const h = { name: 'eth0', hardwareAddr: '52:54:00:12:34:56' };
    roundTrip(HardwareAddr, h);
    expect(specYAML(HardwareAddr.new('network', 'first', h))).toBe(
      'name: eth0\nhardwareAddr: "52:54:00:12:34:56"\n',
    );
    expect(Buffer.from(field(protoOf(HardwareAddr, h), 2).value as Uint8Array).toString('hex')).toBe(
      '525400123456',
    );
    const d = { device: { interface: 'eth0', addresses: ['10.5.0.2/24'], mtu: 1500, dhcp: false } };
    roundTrip(DeviceConfigSpec, d);
    expect(new TextDecoder().decode(field(protoOf(DeviceConfigSpec, d), 1).value as Uint8Array)).toBe(
      'interface: eth0\naddresses:\n    - 10.5.0.2/24\nmtu: 1500\ndhcp: false\n',
    );
  });
});
