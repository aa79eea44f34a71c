// v1alpha1 machine.network: interfaces, bonds, bridges, VLANs, VIPs and KubeSpan.
import { bool, int, keyedBy, list, type Schema, str, struct } from '../schema.js';

export interface DeviceSelector {
  busPath?: string;
  hardwareAddr?: string;
  permanentAddr?: string;
  pciID?: string;
  driver?: string;
  physical?: boolean;
}
export interface Route {
  network?: string;
  gateway?: string;
  source?: string;
  metric?: number;
  mtu?: number;
}
export interface DHCPOptions {
  routeMetric?: number;
  ipv4?: boolean;
  ipv6?: boolean;
  duidv6?: string;
}
export interface VIP {
  ip?: string;
  equinixMetal?: { apiToken?: string };
  hcloud?: { apiToken?: string };
}
export interface Bond {
  interfaces?: string[];
  deviceSelectors?: DeviceSelector[];
  arpIPTarget?: string[];
  mode?: string;
  xmitHashPolicy?: string;
  lacpRate?: string;
  miimon?: number;
  updelay?: number;
  downdelay?: number;
  [option: string]: unknown;
}
export interface Bridge {
  interfaces?: string[];
  stp?: { enabled?: boolean };
  vlan?: { vlanFiltering?: boolean };
}
export interface Vlan {
  addresses?: string[];
  /** deprecated: one address, superseded by addresses */
  cidr?: string;
  routes?: Route[];
  dhcp?: boolean;
  vlanId?: number;
  mtu?: number;
  vip?: VIP;
  dhcpOptions?: DHCPOptions;
}
export interface LegacyWireguardPeer {
  publicKey?: string;
  endpoint?: string;
  persistentKeepaliveInterval?: string;
  allowedIPs?: string[];
}
export interface LegacyWireguard {
  privateKey?: string;
  listenPort?: number;
  firewallMark?: number;
  peers?: LegacyWireguardPeer[];
}
export interface Device {
  interface?: string;
  deviceSelector?: DeviceSelector;
  addresses?: string[];
  /** deprecated: one address, superseded by addresses */
  cidr?: string;
  routes?: Route[];
  bond?: Bond;
  bridge?: Bridge;
  bridgePort?: { master?: string };
  vlans?: Vlan[];
  mtu?: number;
  dhcp?: boolean;
  ignore?: boolean;
  dummy?: boolean;
  dhcpOptions?: DHCPOptions;
  wireguard?: LegacyWireguard;
  vip?: VIP;
}
export interface ExtraHost {
  ip?: string;
  aliases?: string[];
}
export interface KubeSpan {
  enabled?: boolean;
  advertiseKubernetesNetworks?: boolean;
  allowDownPeerBypass?: boolean;
  harvestExtraEndpoints?: boolean;
  mtu?: number;
  filters?: { endpoints?: string[]; excludeAdvertisedNetworks?: string[] };
}
export interface NetworkConfig {
  hostname?: string;
  interfaces?: Device[];
  nameservers?: string[];
  searchDomains?: string[];
  extraHostEntries?: ExtraHost[];
  kubespan?: KubeSpan;
  disableSearchDomain?: boolean;
}

const deviceSelector = struct({
  busPath: str,
  hardwareAddr: str,
  permanentAddr: str,
  pciID: str,
  driver: str,
  physical: bool,
});
const route = struct({ network: str, gateway: str, source: str, metric: int, mtu: int });
const dhcpOptions = struct({ routeMetric: int, ipv4: bool, ipv6: bool, duidv6: str });
const vip = struct({ ip: str, equinixMetal: struct({ apiToken: str }), hcloud: struct({ apiToken: str }) });
const bond = struct({
  interfaces: list(str),
  deviceSelectors: list(deviceSelector),
  arpIPTarget: list(str),
  mode: str,
  xmitHashPolicy: str,
  lacpRate: str,
  adActorSystem: str,
  arpValidate: str,
  arpAllTargets: str,
  primary: str,
  primaryReselect: str,
  failOverMac: str,
  adSelect: str,
  miimon: int,
  updelay: int,
  downdelay: int,
  arpInterval: int,
  resendIgmp: int,
  minLinks: int,
  lpInterval: int,
  packetsPerSlave: int,
  numPeerNotif: int,
  tlbDynamicLb: int,
  allSlavesActive: int,
  useCarrier: bool,
  adActorSysPrio: int,
  adUserPortKey: int,
  peerNotifyDelay: int,
});
const vlan = struct({
  addresses: list(str),
  cidr: str,
  routes: list(route),
  dhcp: bool,
  vlanId: int,
  mtu: int,
  vip,
  dhcpOptions,
});
const device = struct({
  interface: str,
  deviceSelector,
  addresses: list(str),
  cidr: str,
  routes: list(route),
  bond,
  bridge: struct({
    interfaces: list(str),
    stp: struct({ enabled: bool }),
    vlan: struct({ vlanFiltering: bool }),
  }),
  bridgePort: struct({ master: str }),
  vlans: list(vlan, { key: keyedBy('vlanId') }),
  mtu: int,
  dhcp: bool,
  ignore: bool,
  dummy: bool,
  dhcpOptions,
  wireguard: struct({
    privateKey: str,
    listenPort: int,
    firewallMark: int,
    peers: list(
      struct({ publicKey: str, endpoint: str, persistentKeepaliveInterval: str, allowedIPs: list(str) }),
    ),
  }),
  vip,
});

/** deviceKey matches interfaces the way upstream's NetworkDeviceList.Merge does. */
const deviceKey = (item: unknown): string | undefined => {
  const d = item as Device | null;
  if (d?.interface) return `interface=${d.interface}`;
  if (d?.deviceSelector) return `selector=${JSON.stringify(d.deviceSelector)}`;
  return undefined;
};

export const networkSchema: Schema = struct({
  hostname: str,
  interfaces: list(device, { key: deviceKey }),
  nameservers: list(str),
  searchDomains: list(str),
  extraHostEntries: list(struct({ ip: str, aliases: list(str) })),
  kubespan: struct({
    enabled: bool,
    advertiseKubernetesNetworks: bool,
    allowDownPeerBypass: bool,
    harvestExtraEndpoints: bool,
    mtu: int,
    filters: struct({ endpoints: list(str), excludeAdvertisedNetworks: list(str) }),
  }),
  disableSearchDomain: bool,
});
