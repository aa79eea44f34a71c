// One valid and one invalid sample per `machine.network` rule, after upstream's v1alpha1 Validate.
import { describe } from 'vitest';
import { type Patch, type RuleCase, ruleTable } from './rule-table.js';

const key = Buffer.alloc(32, 7).toString('base64');
const net = (...interfaces: Record<string, unknown>[]): Patch => ({ machine: { network: { interfaces } } });
const bond = (b: Record<string, unknown>): Patch =>
  net({ interface: 'bond0', dhcp: true, bond: { interfaces: ['eth0'], ...b } });
const wg = (w: Record<string, unknown>): Patch =>
  net({ interface: 'wg0', addresses: ['10.1.0.1/24'], wireguard: { privateKey: key, ...w } });
const iface = 'machine.network.interfaces[0]';

const cases: RuleCase[] = [
  {
    rule: 'address is an IP or a CIDR',
    valid: net({ interface: 'eth0', addresses: ['10.0.0.2/24', '10.0.0.3'] }),
    invalid: net({ interface: 'eth0', addresses: ['10.0.0.2/24', '10.0.0.300/24'] }),
    path: `${iface}.addresses[1]`,
    error: 'not a CIDR or an IP address',
  },
  {
    rule: 'interface or deviceSelector is required',
    valid: net({ deviceSelector: { driver: 'virtio_net' }, dhcp: true }),
    invalid: net({ dhcp: true }),
    path: iface,
    error: 'required either config section to be set',
  },
  {
    rule: 'route network is a CIDR',
    valid: net({ interface: 'eth0', routes: [{ network: '0.0.0.0/0', gateway: '10.0.0.1' }] }),
    invalid: net({ interface: 'eth0', routes: [{ network: '10.0.0.0', gateway: '10.0.0.1' }] }),
    path: `${iface}.routes[0].network`,
    error: 'invalid network address',
  },
  {
    rule: 'vlan ID is within 1-4094',
    valid: net({ interface: 'eth0', vlans: [{ vlanId: 4094, dhcp: true }] }),
    invalid: net({ interface: 'eth0', vlans: [{ vlanId: 0, dhcp: true }] }),
    path: `${iface}.vlans[0].vlanId`,
    error: 'out of range 1-4094',
  },
  {
    rule: 'vlan has cidr or addresses, not both',
    valid: net({ interface: 'eth0', vlans: [{ vlanId: 5, addresses: ['10.5.0.2/24'] }] }),
    invalid: net({
      interface: 'eth0',
      vlans: [{ vlanId: 5, cidr: '10.5.0.2/24', addresses: ['10.5.0.3/24'] }],
    }),
    path: `${iface}.vlans[0].cidr`,
    error: "vlan can't have both .cidr and .addresses set",
  },
  {
    rule: 'bond mode is known',
    valid: bond({ mode: 'active-backup' }),
    invalid: bond({ mode: 'round-robin' }),
    path: `${iface}.bond.mode`,
    error: 'invalid bond type round-robin',
  },
  {
    rule: 'bond xmitHashPolicy is known',
    valid: bond({ mode: '802.3ad', xmitHashPolicy: 'layer3+4' }),
    invalid: bond({ mode: '802.3ad', xmitHashPolicy: 'layer4' }),
    path: `${iface}.bond.xmitHashPolicy`,
    error: 'invalid xmit hash policy layer4',
  },
  {
    rule: 'bond lacpRate is known',
    valid: bond({ mode: '802.3ad', lacpRate: 'fast' }),
    invalid: bond({ mode: '802.3ad', lacpRate: 'rapid' }),
    path: `${iface}.bond.lacpRate`,
    error: 'invalid lacp rate rapid',
  },
  {
    rule: 'bond arpValidate is known',
    valid: bond({ mode: 'active-backup', arpValidate: 'filter-active' }),
    invalid: bond({ mode: 'active-backup', arpValidate: 'some' }),
    path: `${iface}.bond.arpValidate`,
    error: 'invalid arp_validate mode some',
  },
  {
    rule: 'bond arpAllTargets is known',
    valid: bond({ arpAllTargets: 'all' }),
    invalid: bond({ arpAllTargets: 'every' }),
    path: `${iface}.bond.arpAllTargets`,
    error: 'invalid arp_all_targets mode every',
  },
  {
    rule: 'bond primaryReselect is known',
    valid: bond({ primaryReselect: 'better' }),
    invalid: bond({ primaryReselect: 'never' }),
    path: `${iface}.bond.primaryReselect`,
    error: 'invalid primary_reselect mode never',
  },
  {
    rule: 'bond failOverMac is known',
    valid: bond({ failOverMac: 'follow' }),
    invalid: bond({ failOverMac: 'copy' }),
    path: `${iface}.bond.failOverMac`,
    error: 'invalid fail_over_mac value copy',
  },
  {
    rule: 'bond adSelect is known',
    valid: bond({ mode: '802.3ad', adSelect: 'bandwidth' }),
    invalid: bond({ mode: '802.3ad', adSelect: 'fastest' }),
    path: `${iface}.bond.adSelect`,
    error: 'invalid ad_select mode fastest',
  },
  {
    rule: 'bond downDelay needs miimon',
    valid: bond({ miimon: 100, downdelay: 200 }),
    invalid: bond({ downdelay: 200 }),
    path: `${iface}.bond.downdelay`,
    error: "bond.downDelay can't be set if miiMon is zero",
  },
  {
    rule: 'bond adActorSystem is not supported',
    valid: bond({ mode: '802.3ad' }),
    invalid: bond({ mode: '802.3ad', adActorSystem: '00:11:22:33:44:55' }),
    path: `${iface}.bond.adActorSystem`,
    error: 'bond.adActorSystem is not supported',
  },
  {
    rule: 'bond arpValidate is not for 802.3ad',
    valid: bond({ mode: 'balance-xor', arpValidate: 'all' }),
    invalid: bond({ mode: '802.3ad', arpValidate: 'all' }),
    path: `${iface}.bond.arpValidate`,
    error: 'bond.arpValidate is not available in 802.3ad mode',
  },
  {
    rule: 'bond primary needs active-backup or a load balancing mode',
    valid: bond({ mode: 'active-backup', primary: 'eth0' }),
    invalid: bond({ mode: 'balance-xor', primary: 'eth0' }),
    path: `${iface}.bond.primary`,
    error: 'bond.primary is not available in balance-xor mode',
  },
  {
    rule: 'bond arpInterval is not for balance-tlb',
    valid: bond({ mode: 'active-backup', arpInterval: 100 }),
    invalid: bond({ mode: 'balance-tlb', arpInterval: 100 }),
    path: `${iface}.bond.arpInterval`,
    error: 'bond.arpInterval is not available in balance-tlb mode',
  },
  {
    rule: 'bond packetsPerSlave needs balance-rr',
    valid: bond({ mode: 'balance-rr', packetsPerSlave: 4 }),
    invalid: bond({ mode: 'broadcast', packetsPerSlave: 4 }),
    path: `${iface}.bond.packetsPerSlave`,
    error: 'bond.packetsPerSlave is not available in broadcast mode',
  },
  {
    rule: 'bond tlbDynamicLb needs a load balancing mode',
    valid: bond({ mode: 'balance-alb', tlbDynamicLb: 1 }),
    invalid: bond({ mode: 'active-backup', tlbDynamicLb: 1 }),
    path: `${iface}.bond.tlbDynamicLb`,
    error: 'bond.tlbDynamicTLB is not available in active-backup mode',
  },
  {
    rule: 'bond adActorSysPrio needs 802.3ad',
    valid: bond({ mode: '802.3ad', adActorSysPrio: 10 }),
    invalid: bond({ mode: 'balance-rr', adActorSysPrio: 10 }),
    path: `${iface}.bond.adActorSysPrio`,
    error: 'bond.adActorSysPrio is only available in 802.3ad mode',
  },
  {
    rule: 'bond adUserPortKey needs 802.3ad',
    valid: bond({ mode: '802.3ad', adUserPortKey: 3 }),
    invalid: bond({ mode: 'balance-rr', adUserPortKey: 3 }),
    path: `${iface}.bond.adUserPortKey`,
    error: 'bond.adUserPortKey is only available in 802.3ad mode',
  },
  {
    rule: 'wireguard private key is 32 bytes of base64',
    valid: wg({}),
    invalid: wg({ privateKey: Buffer.alloc(16).toString('base64') }),
    path: `${iface}.wireguard.privateKey`,
    error: 'private key is invalid: wrong key',
  },
  {
    rule: 'wireguard peer public key is 32 bytes of base64',
    valid: wg({ peers: [{ publicKey: key, allowedIPs: ['10.1.0.0/24'] }] }),
    invalid: wg({ peers: [{ publicKey: 'not*base64', allowedIPs: ['10.1.0.0/24'] }] }),
    path: `${iface}.wireguard.peers[0].publicKey`,
    error: 'public key invalid: illegal base64 data',
  },
  {
    rule: 'wireguard peer endpoint has a port',
    valid: wg({ peers: [{ publicKey: key, endpoint: '[2001:db8::1]:51820' }] }),
    invalid: wg({ peers: [{ publicKey: key, endpoint: '192.0.2.1' }] }),
    path: `${iface}.wireguard.peers[0].endpoint`,
    error: 'peer endpoint "192.0.2.1" is invalid',
  },
  {
    rule: 'wireguard peer allowed IPs are CIDRs',
    valid: wg({ peers: [{ publicKey: key, allowedIPs: ['0.0.0.0/0', '::/0'] }] }),
    invalid: wg({ peers: [{ publicKey: key, allowedIPs: ['10.1.0.1'] }] }),
    path: `${iface}.wireguard.peers[0].allowedIPs[0]`,
    error: 'peer allowed IP "10.1.0.1" is invalid',
  },
  {
    rule: 'kubespan needs the cluster secret',
    valid: { machine: { network: { kubespan: { enabled: true } } } },
    invalid: { machine: { network: { kubespan: { enabled: true } } }, cluster: { secret: '' } },
    path: 'machine.network.kubespan.enabled',
    error: '.cluster.secret should be set when .machine.network.kubespan is enabled',
  },
  {
    rule: 'kubespan excluded networks are CIDRs',
    valid: {
      machine: {
        network: { kubespan: { enabled: true, filters: { excludeAdvertisedNetworks: ['10.0.0.0/8'] } } },
      },
    },
    invalid: {
      machine: {
        network: { kubespan: { enabled: true, filters: { excludeAdvertisedNetworks: ['10.0.0.1'] } } },
      },
    },
    path: 'machine.network.kubespan.filters.excludeAdvertisedNetworks[0]',
    error: 'KubeSpan exclude advertised networks filter is not valid: "10.0.0.1"',
  },
  {
    rule: 'deviceSelector with only empty values is empty',
    valid: net({ deviceSelector: { physical: false }, dhcp: true }),
    invalid: net({ deviceSelector: { busPath: '', driver: '' }, dhcp: true }),
    path: `${iface}.deviceSelector`,
    error: 'config section should contain at least one field',
  },
  {
    rule: 'bond deviceSelectors are not empty',
    valid: net({ interface: 'bond0', dhcp: true, bond: { deviceSelectors: [{ driver: 'e1000*' }] } }),
    invalid: net({ interface: 'bond0', dhcp: true, bond: { deviceSelectors: [{ driver: 'e1000*' }, {}] } }),
    path: `${iface}.bond.deviceSelectors[1]`,
    error: 'config section should contain at least one field',
  },
  {
    rule: 'deviceSelector hardwareAddr is a lowercase MAC glob',
    valid: net({ deviceSelector: { hardwareAddr: '52:54:00:*' }, dhcp: true }),
    invalid: net({ deviceSelector: { hardwareAddr: '52:54:00:AB:*' }, dhcp: true }),
    path: `${iface}.deviceSelector.hardwareAddr`,
    error:
      'hardwareAddr "52:54:00:AB:*" matches no link: addresses read as lowercase hex pairs joined by ":"',
  },
  {
    rule: 'deviceSelector hardwareAddr without a wildcard is a whole MAC',
    valid: net({ deviceSelector: { hardwareAddr: '52:54:00:12:34:56' }, dhcp: true }),
    invalid: net({ deviceSelector: { hardwareAddr: '52:54:00:12:34' }, dhcp: true }),
    path: `${iface}.deviceSelector.hardwareAddr`,
    error: 'hardwareAddr "52:54:00:12:34" matches no link',
  },
  {
    rule: 'bond deviceSelectors permanentAddr has hex pairs',
    valid: net({ interface: 'bond0', dhcp: true, bond: { deviceSelectors: [{ permanentAddr: '*:5*' }] } }),
    invalid: net({
      interface: 'bond0',
      dhcp: true,
      bond: { deviceSelectors: [{ permanentAddr: '*:525:*' }] },
    }),
    path: `${iface}.bond.deviceSelectors[0].permanentAddr`,
    error: 'permanentAddr "*:525:*" matches no link',
  },
  {
    rule: 'deviceSelector pciID is uppercase vendor:device',
    valid: net({ deviceSelector: { pciID: '1AF4:*' }, dhcp: true }),
    invalid: net({ deviceSelector: { pciID: '1af4:1000' }, dhcp: true }),
    path: `${iface}.deviceSelector.pciID`,
    error: 'pciID "1af4:1000" matches no link: PCI IDs read as uppercase vendor:device hex',
  },
  {
    rule: 'deviceSelector busPath carries the PCI domain',
    valid: net({ deviceSelector: { busPath: '0000:00:03.0' }, dhcp: true }),
    invalid: net({ deviceSelector: { busPath: '00:03.0' }, dhcp: true }),
    path: `${iface}.deviceSelector.busPath`,
    error: 'busPath "00:03.0" matches no link: PCI slots carry their domain, as in "0000:00:03.0"',
  },
  {
    rule: 'deviceSelector busPath is a lowercase PCI slot',
    valid: net({ deviceSelector: { busPath: '0000:00:1f.*' }, dhcp: true }),
    invalid: net({ deviceSelector: { busPath: '0000:00:1F.6' }, dhcp: true }),
    path: `${iface}.deviceSelector.busPath`,
    error: 'PCI slot names are lowercase, as in "0000:00:1f.6"',
  },
  {
    rule: 'deviceSelector driver is a driver name',
    valid: net({ deviceSelector: { driver: 'virtio_net' }, dhcp: true }),
    invalid: net({ deviceSelector: { driver: 'virtio net' }, dhcp: true }),
    path: `${iface}.deviceSelector.driver`,
    error: 'driver "virtio net" matches no link: kernel driver names have no spaces or "/"',
  },
  {
    rule: 'one link does not carry an address twice',
    // a primary and a secondary address of one subnet are fine
    valid: net({ interface: 'eth0', addresses: ['10.0.0.2/24', '10.0.0.3/24'] }),
    invalid: net({ interface: 'eth0', addresses: ['10.0.0.2/24', '10.0.0.3/24', '10.0.0.2/24'] }),
    path: `${iface}.addresses[2]`,
    error:
      'address "10.0.0.2/24" is already on link "eth0" as "10.0.0.2/24" (machine.network.interfaces[0].addresses[0])',
  },
  {
    rule: 'two links do not share a subnet',
    valid: net(
      { interface: 'eth0', addresses: ['10.0.0.2/24', 'fe80::2/64'] },
      { interface: 'eth1', addresses: ['10.0.1.2/24', 'fe80::2/64', '10.0.0.9/32'] },
    ),
    invalid: net(
      { interface: 'eth0', addresses: ['10.0.0.2/24'] },
      { interface: 'eth1', addresses: ['10.0.1.2/24', '10.0.0.3/16'] },
    ),
    path: 'machine.network.interfaces[1].addresses[1]',
    error:
      'address "10.0.0.3/16" on link "eth1" overlaps "10.0.0.2/24" on link "eth0" (machine.network.interfaces[0].addresses[0])',
  },
  {
    rule: 'a VLAN does not share its parent subnet',
    valid: net({
      interface: 'eth0',
      addresses: ['fd00::2/64'],
      vlans: [{ vlanId: 5, addresses: ['fd00:5::2/64'] }],
    }),
    invalid: net({
      interface: 'eth0',
      addresses: ['fd00::2/64'],
      vlans: [{ vlanId: 5, addresses: ['fd00::5/64'] }],
    }),
    path: `${iface}.vlans[0].addresses[0]`,
    error: 'address "fd00::5/64" on link "eth0.5" overlaps "fd00::2/64" on link "eth0"',
  },
  {
    rule: 'vlan MTU is within 68-65535',
    valid: net({ interface: 'eth0', vlans: [{ vlanId: 5, dhcp: true, mtu: 68 }] }),
    invalid: net({ interface: 'eth0', vlans: [{ vlanId: 5, dhcp: true, mtu: 67 }] }),
    path: `${iface}.vlans[0].mtu`,
    error: 'MTU 67 is out of range 68-65535',
  },
  {
    rule: 'interface MTU is within 68-65535',
    valid: net({ interface: 'eth0', dhcp: true, mtu: 65535 }),
    invalid: net({ interface: 'eth0', dhcp: true, mtu: 65536 }),
    path: `${iface}.mtu`,
    error: 'MTU 65536 is out of range 68-65535',
  },
  {
    rule: 'a static gateway is on its link',
    valid: net({
      interface: 'eth0',
      addresses: ['10.0.0.2/24'],
      routes: [{ network: '0.0.0.0/0', gateway: '10.0.0.1' }],
    }),
    invalid: net({
      interface: 'eth0',
      addresses: ['10.0.0.2/24'],
      routes: [{ network: '0.0.0.0/0', gateway: '192.168.7.1' }],
    }),
    path: `${iface}.routes[0].gateway`,
    error:
      'gateway "192.168.7.1" is off-link: outside every address of link "eth0" (10.0.0.2/24); add an on-link route to it (network: 192.168.7.1/32, no gateway) or an address whose subnet holds it',
  },
  {
    rule: 'an on-link route makes an outside gateway reachable',
    valid: net({
      interface: 'eth0',
      addresses: ['10.0.0.2/32'],
      routes: [{ network: '10.0.0.1/32' }, { network: '0.0.0.0/0', gateway: '10.0.0.1' }],
    }),
    // the on-link route is on another link, which does not reach the gateway through eth0
    invalid: net(
      {
        interface: 'eth0',
        addresses: ['10.0.0.2/32'],
        routes: [{ network: '0.0.0.0/0', gateway: '10.0.0.1' }],
      },
      { interface: 'eth1', addresses: ['10.1.0.2/24'], routes: [{ network: '10.0.0.1/32' }] },
    ),
    path: `${iface}.routes[0].gateway`,
    error: 'gateway "10.0.0.1" is off-link',
  },
  {
    rule: 'a VLAN gateway is on the VLAN link',
    // DHCP may bring the subnet, and an IPv6 link-local gateway is always on-link
    valid: net({
      interface: 'eth0',
      vlans: [
        {
          vlanId: 5,
          dhcp: true,
          addresses: ['10.5.0.2/24'],
          routes: [{ network: '10.9.0.0/16', gateway: '10.7.0.1' }],
        },
        { vlanId: 6, addresses: ['fd00:6::2/64'], routes: [{ network: '::/0', gateway: 'fe80::1' }] },
      ],
    }),
    invalid: net({
      interface: 'eth0',
      vlans: [
        { vlanId: 6, addresses: ['fd00:6::2/64'], routes: [{ network: '::/0', gateway: 'fd00:7::1' }] },
      ],
    }),
    path: `${iface}.vlans[0].routes[0].gateway`,
    error:
      'gateway "fd00:7::1" is off-link: outside every address of link "eth0.6" (fd00:6::2/64); add an on-link route to it (network: fd00:7::1/128, no gateway)',
  },
  {
    rule: 'a route has a network or a gateway',
    valid: net({ interface: 'eth0', addresses: ['10.0.0.2/24'], routes: [{ network: '10.8.0.0/16' }] }),
    invalid: net({ interface: 'eth0', addresses: ['10.0.0.2/24'], routes: [{ metric: 100 }] }),
    path: `${iface}.routes[0]`,
    error: 'either network or gateway should be set',
  },
];

describe('machine.network rules', () => ruleTable(cases));
