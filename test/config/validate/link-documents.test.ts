// Typed link documents: one valid and one invalid sample per rule, and a mixed multi-document config.
import { describe, expect, it } from 'vitest';
import { decodeDocuments } from '../../../src/config/decoder/index.js';
import { configText, errorsFor, type RuleCase, ruleTable } from './rule-table.js';

const key = Buffer.alloc(32, 3).toString('base64');
const doc = (kind: string, body: string) => `apiVersion: v1alpha1\nkind: ${kind}\n${body}`;
const typed = (rule: string, path: string, error: string, valid: string, invalid: string): RuleCase => ({
  rule,
  valid: {},
  invalid: {},
  path,
  error,
  extra: { valid, invalid },
});

const link = (body: string) => doc('LinkConfig', `name: eth1\n${body}`);
const route = (fields: string) => link(`routes:\n  - gateway: 10.9.0.254\n    ${fields}\n`);

// LinkConfig has exactly upstream's rules: the name, then CommonLinkConfig as every link kind
const linkCases: RuleCase[] = [
  typed('link needs a name', 'name', 'name must be specified', link(''), doc('LinkConfig', 'mtu: 1500\n')),
  typed(
    'link address must be specified',
    'addresses[0].address',
    'address 0 must be specified',
    link('addresses:\n  - address: 10.9.0.1/24\n'),
    link('addresses:\n  - routePriority: 100\n'),
  ),
  typed(
    'link address is an IP prefix',
    'addresses[1].address',
    'address 1 must be a valid IP prefix',
    link('addresses:\n  - address: 10.9.0.1/24\n  - address: fd00::1/64\n'),
    link('addresses:\n  - address: 10.9.0.1/24\n  - address: fd00::1\n'),
  ),
  typed(
    'link address is not unspecified',
    'addresses[0].address',
    'address 0 must be a valid IP address',
    link('addresses:\n  - address: 10.9.0.1/32\n'),
    link('addresses:\n  - address: "::/0"\n'),
  ),
  typed(
    'link route destination is a specified prefix',
    'routes[0].destination',
    'route 0 destination must be a valid IP prefix',
    link('routes:\n  - destination: 10.3.5.0/24\n    gateway: 10.3.5.1\n'),
    link('routes:\n  - destination: 0.0.0.0/0\n    gateway: 10.3.5.1\n'),
  ),
  typed(
    'link route gateway is a specified address',
    'routes[0].gateway',
    'route 0 gateway must be a valid IP address',
    link('routes:\n  - gateway: fe80::1%eth1\n'),
    link('routes:\n  - gateway: "::"\n'),
  ),
  typed(
    'link route source is an address',
    'routes[0].source',
    'route 0 source must be a valid IP address',
    route('source: 10.9.0.1'),
    route('source: 10.9.0.1/24'),
  ),
  typed(
    'link MTU fits a uint32',
    'mtu',
    'mtu -1 is out of range 0-4294967295',
    link('mtu: 4294967295\n'),
    link('mtu: -1\n'),
  ),
  typed(
    'link address route priority fits a uint32',
    'addresses[0].routePriority',
    'routePriority 4294967296 is out of range 0-4294967295',
    link('addresses:\n  - address: 10.9.0.1/24\n    routePriority: 0\n'),
    link('addresses:\n  - address: 10.9.0.1/24\n    routePriority: 4294967296\n'),
  ),
  typed(
    'link route metric fits a uint32',
    'routes[0].metric',
    'metric -10 is out of range 0-4294967295',
    route('metric: 1024'),
    route('metric: -10'),
  ),
  typed(
    'link route MTU fits a uint32',
    'routes[0].mtu',
    'mtu 5000000000 is out of range 0-4294967295',
    route('mtu: 1400'),
    route('mtu: 5000000000'),
  ),
  typed(
    'link route table is a routing table name',
    'routes[0].table',
    '253 does not belong to RoutingTable values',
    route('table: MAIN'),
    route('table: "253"'),
  ),
];

const cases: RuleCase[] = [
  ...linkCases,
  typed(
    'dummy link needs a name',
    'name',
    'name must be specified',
    doc('DummyLinkConfig', 'name: dummy0\n'),
    doc('DummyLinkConfig', 'addresses:\n  - address: 10.9.0.1/32\n'),
  ),
  typed(
    'link address is an IP prefix',
    'addresses[0].address',
    'address 0 must be a valid IP prefix',
    doc('DummyLinkConfig', 'name: dummy0\naddresses:\n  - address: 10.9.0.1/32\n'),
    doc('DummyLinkConfig', 'name: dummy0\naddresses:\n  - address: 10.9.0.1\n'),
  ),
  typed(
    'link address is not unspecified',
    'addresses[0].address',
    'address 0 must be a valid IP address',
    doc('DummyLinkConfig', 'name: dummy0\naddresses:\n  - address: fd00::1/128\n'),
    doc('DummyLinkConfig', 'name: dummy0\naddresses:\n  - address: 0.0.0.0/0\n'),
  ),
  typed(
    'link route gateway is an address',
    'routes[0].gateway',
    'route 0 gateway must be a valid IP address',
    doc('DummyLinkConfig', 'name: dummy0\nroutes:\n  - gateway: 10.9.0.254\n'),
    doc('DummyLinkConfig', 'name: dummy0\nroutes:\n  - gateway: 10.9.0.0/24\n'),
  ),
  typed(
    'hardware address is a MAC',
    'hardwareAddr',
    'invalid MAC address "00:11:22"',
    doc('DummyLinkConfig', 'name: dummy0\nhardwareAddr: 00:11:22:33:44:55\n'),
    doc('DummyLinkConfig', 'name: dummy0\nhardwareAddr: 00:11:22\n'),
  ),
  typed(
    'VLAN ID is within 1-4094',
    'vlanID',
    'vlanID must be specified and between 1 and 4094',
    doc('VLANConfig', 'name: eth0.10\nvlanID: 10\nparent: eth0\n'),
    doc('VLANConfig', 'name: eth0.10\nvlanID: 4095\nparent: eth0\n'),
  ),
  typed(
    'VLAN needs a parent',
    'parent',
    'parent must be specified',
    doc('VLANConfig', 'name: eth0.10\nvlanID: 10\nparent: eth0\n'),
    doc('VLANConfig', 'name: eth0.10\nvlanID: 10\n'),
  ),
  typed(
    'VLAN mode is 802.1q or 802.1ad',
    'vlanMode',
    "vlanMode must be either '802.1q' or '802.1ad'",
    doc('VLANConfig', 'name: eth0.10\nvlanID: 10\nvlanMode: 802.1ad\nparent: eth0\n'),
    doc('VLANConfig', 'name: eth0.10\nvlanID: 10\nvlanMode: qinq\nparent: eth0\n'),
  ),
  typed(
    'bond needs links',
    'links',
    'at least one link must be specified',
    doc('BondConfig', 'name: bond0\nlinks: [eth0, eth1]\nbondMode: active-backup\n'),
    doc('BondConfig', 'name: bond0\nbondMode: active-backup\n'),
  ),
  typed(
    'bond needs a mode',
    'bondMode',
    'bond mode must be specified',
    doc('BondConfig', 'name: bond0\nlinks: [eth0]\nbondMode: balance-rr\n'),
    doc('BondConfig', 'name: bond0\nlinks: [eth0]\n'),
  ),
  typed(
    'bond mode is known',
    'bondMode',
    'invalid bond type lacp',
    doc(
      'BondConfig',
      'name: bond0\nlinks: [eth0]\nbondMode: 802.3ad\nmiimon: 100\nupdelay: 200\ndowndelay: 200\n',
    ),
    doc('BondConfig', 'name: bond0\nlinks: [eth0]\nbondMode: lacp\n'),
  ),
  typed(
    'bond adLACPActive is on or off',
    'adLACPActive',
    'invalid ad_lacp_active value yes',
    doc('BondConfig', 'name: bond0\nlinks: [eth0]\nbondMode: balance-rr\nadLACPActive: "on"\n'),
    doc('BondConfig', 'name: bond0\nlinks: [eth0]\nbondMode: balance-rr\nadLACPActive: "yes"\n'),
  ),
  typed(
    'bond ARP targets are IPv4 addresses',
    'arpIpTargets[0]',
    '"fd00::1" is not an IPv4 address',
    doc('BondConfig', 'name: bond0\nlinks: [eth0]\nbondMode: active-backup\narpIpTargets: [10.0.0.1]\n'),
    doc('BondConfig', 'name: bond0\nlinks: [eth0]\nbondMode: active-backup\narpIpTargets: ["fd00::1"]\n'),
  ),
  typed(
    'bond 8-bit options fit a byte',
    'numPeerNotif',
    'numPeerNotif 300 is out of range 0-255',
    doc('BondConfig', 'name: bond0\nlinks: [eth0]\nbondMode: active-backup\nnumPeerNotif: 3\n'),
    doc('BondConfig', 'name: bond0\nlinks: [eth0]\nbondMode: active-backup\nnumPeerNotif: 300\n'),
  ),
  typed(
    'bridge needs a name',
    'name',
    'name must be specified',
    doc('BridgeConfig', 'name: br0\nlinks: [eth1]\nstp:\n  enabled: true\n'),
    doc('BridgeConfig', 'links: [eth1]\n'),
  ),
  typed(
    'wireguard needs a private key',
    'privateKey',
    'wireguard private key must be specified',
    doc('WireguardConfig', `name: wg0\nprivateKey: ${key}\n`),
    doc('WireguardConfig', 'name: wg0\nlistenPort: 51820\n'),
  ),
  typed(
    'wireguard private key is 32 bytes',
    'privateKey',
    'wireguard private key is invalid: wrong key',
    doc('WireguardConfig', `name: wg0\nprivateKey: ${key}\n`),
    doc('WireguardConfig', `name: wg0\nprivateKey: ${Buffer.alloc(31).toString('base64')}\n`),
  ),
  typed(
    'wireguard listen port is 0-65535',
    'listenPort',
    'wireguard listen port must be between 0 and 65535',
    doc('WireguardConfig', `name: wg0\nprivateKey: ${key}\nlistenPort: 65535\n`),
    doc('WireguardConfig', `name: wg0\nprivateKey: ${key}\nlistenPort: 70000\n`),
  ),
  typed(
    'wireguard peer needs a public key',
    'peers[0].publicKey',
    'wireguard peer public key must be specified (peer index 0)',
    doc('WireguardConfig', `name: wg0\nprivateKey: ${key}\npeers:\n  - publicKey: ${key}\n`),
    doc('WireguardConfig', `name: wg0\nprivateKey: ${key}\npeers:\n  - allowedIPs: [10.0.0.0/8]\n`),
  ),
  typed(
    'wireguard peer preshared key is 32 bytes',
    'peers[0].presharedKey',
    'wireguard peer preshared key is invalid (peer index 0)',
    doc(
      'WireguardConfig',
      `name: wg0\nprivateKey: ${key}\npeers:\n  - publicKey: ${key}\n    presharedKey: ${key}\n`,
    ),
    doc(
      'WireguardConfig',
      `name: wg0\nprivateKey: ${key}\npeers:\n  - publicKey: ${key}\n    presharedKey: abc\n`,
    ),
  ),
  typed(
    'wireguard peer endpoint is ip:port',
    'peers[0].endpoint',
    'invalid AddrPort "vpn.example.com:51820"',
    doc(
      'WireguardConfig',
      `name: wg0\nprivateKey: ${key}\npeers:\n  - publicKey: ${key}\n    endpoint: "[2001:db8::1]:51820"\n`,
    ),
    doc(
      'WireguardConfig',
      `name: wg0\nprivateKey: ${key}\npeers:\n  - publicKey: ${key}\n    endpoint: vpn.example.com:51820\n`,
    ),
  ),
  typed(
    'wireguard peer keepalive is not negative',
    'peers[0].persistentKeepaliveInterval',
    'wireguard peer persistent keepalive interval cannot be negative (peer index 0)',
    doc(
      'WireguardConfig',
      `name: wg0\nprivateKey: ${key}\npeers:\n  - publicKey: ${key}\n    persistentKeepaliveInterval: 25s\n`,
    ),
    doc(
      'WireguardConfig',
      `name: wg0\nprivateKey: ${key}\npeers:\n  - publicKey: ${key}\n    persistentKeepaliveInterval: -25s\n`,
    ),
  ),
  typed(
    'wireguard peer allowed IPs are CIDRs',
    'peers[0].allowedIPs[0]',
    '"10.0.0.1" is not a CIDR',
    doc(
      'WireguardConfig',
      `name: wg0\nprivateKey: ${key}\npeers:\n  - publicKey: ${key}\n    allowedIPs: [10.0.0.0/8]\n`,
    ),
    doc(
      'WireguardConfig',
      `name: wg0\nprivateKey: ${key}\npeers:\n  - publicKey: ${key}\n    allowedIPs: [10.0.0.1]\n`,
    ),
  ),
];

describe('typed link documents', () => {
  ruleTable(cases);

  // Keel once had its own LinkConfig rules; upstream v1.13.0 has none of them, so it accepts all of these
  it.each([
    ['an MTU below the IPv4 minimum', link('mtu: 10\n')],
    ['a route with neither destination nor gateway', link('routes:\n  - metric: 100\n    mtu: 1400\n')],
    [
      'a route whose destination and gateway families differ',
      link('routes:\n  - destination: 10.3.5.0/24\n    gateway: fe80::1\n'),
    ],
    ['a numbered routing table', route('table: 100')],
    ['the unspec routing table', route('table: unspec')],
  ])('LinkConfig accepts %s, as upstream does', (_, extra) => {
    expect(errorsFor(configText('worker', {}, extra)).map((e) => e.message)).toEqual([]);
  });

  // upstream decodes strictly: a key LinkConfigV1Alpha1 lacks fails before validation
  it.each([
    ['routes[0].type', route('type: blackhole')],
    ['hardwareAddr', link('hardwareAddr: 00:11:22:33:44:55\n')],
    ['addresses[0].label', link('addresses:\n  - address: 10.9.0.1/24\n    label: lo\n')],
  ])('LinkConfig refuses the unknown field %s at its line', (path, extra) => {
    const key = path.replace(/^.*\./, '');
    const text = configText('worker', {}, extra);
    const hit = decodeDocuments(text).errors.find((e) => e.path === path);
    expect(hit).toMatchObject({ code: 'unknown-field', document: 'LinkConfig/eth1' });
    expect(hit!.detail).toBe(`unknown field ${JSON.stringify(key)}`);
    // the key is the last line of the stream that spells it
    const lines = text.split('\n').map((l) => l.trim().replace(/^- /, ''));
    expect(hit!.line).toBe(lines.findLastIndex((l) => l.startsWith(`${key}:`)) + 1);
  });

  it('accepts v1alpha1 mixed with every typed network document', () => {
    const extra = [
      doc('HostnameConfig', 'auto: off\nhostname: node-1\n'),
      doc(
        'LinkConfig',
        'name: eth0\nup: true\naddresses:\n  - address: 192.168.1.10/24\nroutes:\n  - gateway: 192.168.1.1\n',
      ),
      doc(
        'BondConfig',
        'name: bond0\nlinks: [eth1, eth2]\nbondMode: 802.3ad\nmiimon: 100\nupdelay: 200\ndowndelay: 200\nlacpRate: fast\n',
      ),
      doc('VLANConfig', 'name: bond0.20\nvlanID: 20\nparent: bond0\naddresses:\n  - address: 10.20.0.2/24\n'),
      doc('BridgeConfig', 'name: br0\nlinks: [eth3]\nstp:\n  enabled: true\nvlan:\n  filtering: false\n'),
      doc('DummyLinkConfig', 'name: dummy0\naddresses:\n  - address: 169.254.100.1/32\n'),
      doc(
        'WireguardConfig',
        `name: wg0\nprivateKey: ${key}\nlistenPort: 51820\npeers:\n  - publicKey: ${key}\n    endpoint: 192.0.2.1:51820\n    allowedIPs: [10.100.0.0/16]\naddresses:\n  - address: 10.100.0.1/16\n`,
      ),
      doc('DHCPv4Config', 'name: eth4\n'),
      doc('ResolverConfig', 'nameservers:\n  - address: 1.1.1.1\n'),
      doc('StaticHostConfig', 'name: 10.5.0.9\nhostnames: [registry.local]\n'),
    ].join('---\n');
    // the worker fixture already carries a HostnameConfig, so start from one without it
    const text = configText('controlplane', {}, extra).replace(
      /---\napiVersion: v1alpha1\nkind: HostnameConfig\nauto: stable\n/,
      '',
    );
    for (const mode of ['metal', 'cloud'] as const)
      expect(errorsFor(text, mode).map((e) => e.message)).toEqual([]);
  });
});
