// The kernel command line's network arguments, with upstream's ParseCmdlineNetwork cases.
import { describe, expect, it } from 'vitest';
import {
  CmdlineError,
  type CmdlineLink,
  type CmdlineNetworking,
  cmdlineRoutes,
  defaultBondMaster,
  fillBondDefaults,
  parseCmdlineNetwork,
  parseKernelParams,
  splitIPArgument,
} from '../../../../controllers/network/internal/cmdline.js';
import type { LinkInfo } from '../../../../controllers/network/internal/links.js';

// two links known by an alias, and a loopback that is never the default device
const LINKS: LinkInfo[] = [
  { name: 'lo', loopback: true, index: 1 },
  { name: 'eth31', alias: 'enxa', index: 2 },
  { name: 'eth32', alias: 'enxb', index: 3 },
];

const none = (): CmdlineNetworking => ({
  linkConfigs: [],
  hostname: '',
  dnsAddresses: [],
  ntpAddresses: [],
  ignoreInterfaces: [],
  links: [],
});
const up = (name: string, extra: Partial<CmdlineLink> = {}): CmdlineLink => ({
  name,
  up: true,
  logical: false,
  mtu: 0,
  kind: '',
  parentName: '',
  ...extra,
});
const slave = (name: string, slaveIndex: number) =>
  up(name, { bondSlave: { masterName: 'bond1', slaveIndex } });
const bond = (edit: (b: ReturnType<typeof defaultBondMaster>) => void = () => {}, mtu = 0): CmdlineLink => {
  const b = defaultBondMaster();
  edit(b);
  fillBondDefaults(b);
  return up('bond1', { logical: true, kind: 'bond', mtu, bondMaster: b });
};
const vlan = (name: string, parentName: string, vid: number) =>
  up(name, { logical: true, kind: 'vlan', parentName, vlan: { vid, protocol: '802.1q' } });

const parse = (cmdline: string) => parseCmdlineNetwork(cmdline, { links: LINKS });

describe('parseCmdlineNetwork', () => {
  const cases: [string, string, Partial<CmdlineNetworking>][] = [
    ['zero', '', {}],
    [
      'static IP',
      'ip=172.20.0.2::172.20.0.1:255.255.255.0::eth1:::::',
      {
        linkConfigs: [{ address: '172.20.0.2/24', gateway: '172.20.0.1', linkName: 'eth1', dhcp: false }],
        links: [up('eth1')],
      },
    ],
    [
      'no iface: the first non-loopback link',
      'ip=172.20.0.2::172.20.0.1',
      {
        linkConfigs: [{ address: '172.20.0.2/32', gateway: '172.20.0.1', linkName: 'eth31', dhcp: false }],
        links: [up('eth31')],
      },
    ],
    [
      'iface by mac address name',
      'ip=172.20.0.2::172.20.0.1:255.255.255.0::enx001122aabbcc',
      {
        linkConfigs: [
          { address: '172.20.0.2/24', gateway: '172.20.0.1', linkName: 'enx001122aabbcc', dhcp: false },
        ],
        links: [up('enx001122aabbcc')],
      },
    ],
    [
      'complete',
      'ip=172.20.0.2:172.21.0.1:172.20.0.1:255.255.255.0:master1:eth1::10.0.0.1:10.0.0.2:10.0.0.1',
      {
        linkConfigs: [{ address: '172.20.0.2/24', gateway: '172.20.0.1', linkName: 'eth1', dhcp: false }],
        hostname: 'master1',
        dnsAddresses: ['10.0.0.1', '10.0.0.2'],
        ntpAddresses: ['10.0.0.1'],
        links: [up('eth1')],
      },
    ],
    [
      'autoconf off',
      'ip=10.105.155.21::10.105.155.30:255.255.255.240:pve1:eth0:off',
      {
        linkConfigs: [
          { linkName: 'eth0', address: '10.105.155.21/28', gateway: '10.105.155.30', dhcp: false },
        ],
        hostname: 'pve1',
        links: [up('eth0')],
      },
    ],
    [
      'autoconf none',
      'ip=10.0.0.2:::24::eth0:none',
      { linkConfigs: [{ linkName: 'eth0', address: '10.0.0.2/24', dhcp: false }], links: [up('eth0')] },
    ],
    [
      'ipv6',
      'ip=[2001:db8::a]:[2001:db8::b]:[fe80::1]::master1:eth1::[2001:4860:4860::6464]:[2001:4860:4860::64]:[2001:4860:4806::]',
      {
        linkConfigs: [{ address: '2001:db8::a/128', gateway: 'fe80::1', linkName: 'eth1', dhcp: false }],
        hostname: 'master1',
        dnsAddresses: ['2001:4860:4860::6464', '2001:4860:4860::64'],
        ntpAddresses: ['2001:4860:4806::'],
        links: [up('eth1')],
      },
    ],
    [
      'ipv6 with a mask',
      'ip=[2a03:1:2::12]::[2a03:1:2::11]:[ffff:ffff:ffff:ffff:ffff:ffff:ffff:fff8]:master:eth0:off:[2001:4860:4860::8888]:[2606:4700::1111]:[2606:4700:f1::1]',
      {
        linkConfigs: [
          { address: '2a03:1:2::12/125', gateway: '2a03:1:2::11', linkName: 'eth0', dhcp: false },
        ],
        hostname: 'master',
        dnsAddresses: ['2001:4860:4860::8888', '2606:4700::1111'],
        ntpAddresses: ['2606:4700:f1::1'],
        links: [up('eth0')],
      },
    ],
    [
      'ipv6 with a prefix length',
      'ip=[2a03:1:2::12]::[2a03:1:2::11]:125:master:eth0:off:[2001:4860:4860::8888]:[2606:4700::1111]:[2606:4700:f1::1]',
      {
        linkConfigs: [
          { address: '2a03:1:2::12/125', gateway: '2a03:1:2::11', linkName: 'eth0', dhcp: false },
        ],
        hostname: 'master',
        dnsAddresses: ['2001:4860:4860::8888', '2606:4700::1111'],
        ntpAddresses: ['2606:4700:f1::1'],
        links: [up('eth0')],
      },
    ],
    [
      'hostname override',
      'ip=::::master1:eth1 talos.hostname=master2',
      { linkConfigs: [{ linkName: 'eth1', dhcp: false }], hostname: 'master2', links: [up('eth1')] },
    ],
    ['only hostname', 'talos.hostname=master2', { hostname: 'master2' }],
    [
      'ignore interfaces',
      'talos.network.interface.ignore=eth2 talos.network.interface.ignore=eth3 talos.network.interface.ignore=enxa',
      { ignoreInterfaces: ['eth2', 'eth3', 'eth31'] },
    ],
    ['ip=dhcp alone is left to the default DHCP', 'ip=dhcp', {}],
    [
      'bond with no interfaces and no options',
      'bond=bond1',
      { links: [bond(), slave('eth0', 0), slave('eth1', 1)] },
    ],
    ['bond with empty fields', 'bond=bond1:::', { links: [bond(), slave('eth0', 0), slave('eth1', 1)] }],
    ['bond with interfaces', 'bond=bond1:eth3,eth4', { links: [bond(), slave('eth3', 0), slave('eth4', 1)] }],
    [
      'bond with aliased interfaces',
      'bond=bond1:enxa,enxb',
      { links: [bond(), slave('eth31', 0), slave('eth32', 1)] },
    ],
    [
      'bond with interfaces, options and mtu',
      'bond=bond1:eth3,eth4:mode=802.3ad,xmit_hash_policy=layer2+3:1450',
      {
        links: [
          bond((b) => {
            b.mode = '802.3ad';
            b.hashPolicy = 'layer2+3';
          }, 1450),
          slave('eth3', 0),
          slave('eth4', 1),
        ],
      },
    ],
    [
      'bond with a primary link and numeric options',
      'bond=bond1:enxa,enxb:mode=active-backup,primary=enxb,miimon=100,num_grat_arp=3',
      {
        links: [
          bond((b) => {
            b.mode = 'active-backup';
            b.primaryIndex = 3;
            b.miimon = 100;
            b.numPeerNotif = 3;
          }),
          slave('eth31', 0),
          slave('eth32', 1),
        ],
      },
    ],
    [
      'vlan with an ip= on it',
      'vlan=eth1.169:eth1 ip=172.20.0.2::172.20.0.1:255.255.255.0::eth1.169:::::',
      {
        linkConfigs: [{ address: '172.20.0.2/24', gateway: '172.20.0.1', linkName: 'eth1.169', dhcp: false }],
        links: [vlan('eth1.169', 'eth1', 169)],
      },
    ],
    ['vlan without ip=', 'vlan=eth1.5:eth1', { links: [vlan('eth1.5', 'eth1', 5)] }],
    ['vlan named vlan0008', 'vlan=vlan0008:eth1', { links: [vlan('eth1.8', 'eth1', 8)] }],
    ['vlan named vlan4095', 'vlan=vlan4095:eth1', { links: [vlan('eth1.4095', 'eth1', 4095)] }],
    ['vlan on an alias', 'vlan=vlan4095:enxa', { links: [vlan('enxa.4095', 'eth31', 4095)] }],
    [
      'multiple ip= arguments',
      'ip=172.20.0.2::172.20.0.1:255.255.255.0::eth1::::: ip=eth3:dhcp ip=:::::eth4:dhcp::::',
      {
        linkConfigs: [
          { address: '172.20.0.2/24', gateway: '172.20.0.1', linkName: 'eth1', dhcp: false },
          { linkName: 'eth3', dhcp: true },
          { linkName: 'eth4', dhcp: true },
        ],
        links: [up('eth1'), up('eth3'), up('eth4')],
      },
    ],
  ];
  it.each(cases)('%s', (_name, cmdline, want) => {
    expect(parse(cmdline)).toEqual({ ...none(), ...want });
  });

  const failures: [string, string, string][] = [
    ['unparseable IP', 'ip=xyz:', 'ip=xyz:: client address "xyz" is not an IP address'],
    ['unparseable gateway', 'ip=10.0.0.2::gw', 'ip=10.0.0.2::gw: gateway "gw" is not an IP address'],
    ['unparseable netmask', 'ip=10.0.0.2:::mask', 'ip=10.0.0.2:::mask: netmask "mask" is not an IP address'],
    ['netmask too long', 'ip=10.0.0.2:::33', 'ip=10.0.0.2:::33: netmask "33" is out of range for 10.0.0.2'],
    ['unparseable DNS', 'ip=:::::eth0::dns', 'ip=:::::eth0::dns: DNS server "dns" is not an IP address'],
    ['unparseable NTP', 'ip=:::::eth0::::ntp', 'ip=:::::eth0::::ntp: NTP server "ntp" is not an IP address'],
    [
      'unknown bond option',
      'bond=bond0:eth1,eth2:mod=balance-rr',
      'bond=bond0:eth1,eth2:mod=balance-rr: unknown bond option: mod',
    ],
    [
      'bad bond mode',
      'bond=bond0:eth1:mode=fast',
      'bond=bond0:eth1:mode=fast: bond option mode: invalid value "fast"',
    ],
    [
      'bad bond number',
      'bond=bond0:eth1:miimon=x',
      'bond=bond0:eth1:miimon=x: bond option miimon: "x" is not a number',
    ],
    ['bad bond MTU', 'bond=bond0:eth1::big', 'bond=bond0:eth1::big: bond MTU "big" is not a number'],
    [
      'unknown bond primary',
      'bond=bond0:eth1:primary=eth9',
      'bond=bond0:eth1:primary=eth9: bond primary link "eth9" not found',
    ],
    [
      'vlan id 4096',
      'vlan=eth1.4096:eth1',
      'vlan=eth1.4096:eth1: invalid vlanID=4096, must be in the range 1..4095',
    ],
    ['vlan id 0', 'vlan=eth1.0:eth1', 'vlan=eth1.0:eth1: invalid vlanID=0, must be in the range 1..4095'],
    ['vlan without parent', 'vlan=eth1.5', 'vlan=eth1.5: malformed vlan argument, expected <name>:<parent>'],
    [
      'vlan with a bad name',
      'vlan=foo:eth1',
      'vlan=foo:eth1: malformed vlan name, expected <parent>.<id> or vlan<id>',
    ],
  ];
  it.each(failures)('refuses %s, naming the argument', (_name, cmdline, message) => {
    const run = () => parse(cmdline);
    expect(run).toThrow(CmdlineError);
    expect(run).toThrow(message);
  });

  it('takes the first non-loopback link from the links given, not from the host', () => {
    const s = parseCmdlineNetwork('ip=10.0.0.2', {
      links: [{ name: 'zz' }, { name: 'aa' }, { name: 'a', loopback: true }],
    });
    expect(s.linkConfigs[0]?.linkName).toBe('aa');
    expect(parseCmdlineNetwork('ip=10.0.0.2').linkConfigs[0]?.linkName).toBe('');
  });
});

describe('parseKernelParams / splitIPArgument', () => {
  it('keeps repeated keys in order and drops double quotes', () => {
    const p = parseKernelParams('ip=a  ip=b console="ttyS0,115200 n8" quiet');
    expect(p.get('ip')).toEqual(['a', 'b']);
    expect(p.get('console')).toEqual(['ttyS0,115200 n8']);
    expect(p.get('quiet')).toEqual(['']);
  });

  it('does not split inside brackets', () => {
    expect(splitIPArgument('[2001:db8::a]::[fe80::1]:64')).toEqual(['2001:db8::a', '', 'fe80::1', '64']);
  });
});

describe('cmdlineRoutes', () => {
  it('adds a default route per gateway, metric 1024 + the index of the ip= argument', () => {
    const s = parse(
      'ip=eth3:dhcp ip=172.20.0.2::172.20.0.1:255.255.255.0::eth1 ip=[2001:db8::a]::[2001:db8::1]:64::eth2',
    );
    expect(cmdlineRoutes(s)).toEqual([
      {
        family: 4,
        destination: '',
        gateway: '172.20.0.1',
        source: '',
        outLinkName: 'eth1',
        priority: 1025,
        scope: 'global',
      },
      {
        family: 6,
        destination: '',
        gateway: '2001:db8::1',
        source: '',
        outLinkName: 'eth2',
        priority: 1026,
        scope: 'global',
      },
    ]);
  });

  it('adds an on-link route to an IPv4 gateway outside the subnet', () => {
    const s = parse('ip=10.0.0.2::192.168.1.1:255.255.255.0::eth0');
    expect(cmdlineRoutes(s)).toEqual([
      {
        family: 4,
        destination: '',
        gateway: '192.168.1.1',
        source: '',
        outLinkName: 'eth0',
        priority: 1024,
        scope: 'global',
      },
      {
        family: 4,
        destination: '192.168.1.1/32',
        gateway: '',
        source: '10.0.0.2',
        outLinkName: 'eth0',
        priority: 1024,
        scope: 'link',
      },
    ]);
  });

  it('needs no on-link route for an IPv6 gateway', () => {
    const s = parse('ip=[2001:db8::a]::[fe80::1]::::eth1');
    expect(cmdlineRoutes(s)).toHaveLength(1);
  });
});
