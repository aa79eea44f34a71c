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
];

describe('machine.network rules', () => ruleTable(cases));
