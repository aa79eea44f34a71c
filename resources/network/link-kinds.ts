// The kind-specific settings links share between LinkSpec and LinkStatus: VLAN, bond, bridge, VRF, WireGuard.
import type { ProtoSchema } from '../../src/cosi/resource/proto-schema.js';
import {
  ADLACPActives,
  ADSelects,
  ARPAllTargetsValues,
  ARPValidates,
  BondModes,
  BondXmitHashPolicies,
  FailOverMACs,
  LACPRates,
  PrimaryReselects,
} from './bond-enums.js';
import { enumOf } from './enum.js';
import { goDuration, parseGoDuration } from './go-text.js';
import { VLANProtocols } from './link-enums.js';
import { RoutingTables } from './route-enums.js';
import { ipMessage, ipsOfMessages, netIP, netIPPrefix, prefixesOfMessages, prefixMessage } from './wire.js';
import { bool, list, num, obj, str, strs } from './yaml-read.js';

/** VLANSpec is a VLAN link's id and protocol (an ethertype, 0x8100 for 802.1q). */
export interface VLANSpec {
  vid: number;
  protocol: number;
}

export const VLAN_SCHEMA: ProtoSchema = { vid: { no: 1, kind: 'uint32' }, protocol: { no: 2, kind: 'enum' } };
export const vlanZero = (): VLANSpec => ({ vid: 0, protocol: 0 });
export const vlanIsZero = (s: VLANSpec): boolean => s.vid === 0 && s.protocol === 0;
export const vlanYAML = (s: VLANSpec) => ({ vlanID: s.vid, vlanProtocol: VLANProtocols.text(s.protocol) });
export const vlanOfYAML = (v: unknown): VLANSpec => {
  const o = obj(v);
  return { vid: num(o.vlanID), protocol: enumOf(VLANProtocols, o.vlanProtocol) };
};
export const vlanOfProto = (v: unknown): VLANSpec => {
  const o = obj(v);
  return { vid: num(o.vid), protocol: num(o.protocol) };
};

/** BondMasterSpec is a bond's settings, as the bonding driver names them. */
export interface BondMasterSpec {
  mode: number;
  hashPolicy: number;
  lacpRate: number;
  arpValidate: number;
  arpAllTargets: number;
  /** the primary slave's link index; null is unset (a Go nil pointer) */
  primaryIndex: number | null;
  primaryReselect: number;
  failOverMac: number;
  adSelect: number;
  miimon: number;
  upDelay: number;
  downDelay: number;
  arpInterval: number;
  resendIGMP: number;
  minLinks: number;
  lpInterval: number;
  packetsPerSlave: number;
  numPeerNotif: number;
  tlbDynamicLB: number;
  allSlavesActive: number;
  useCarrier: boolean;
  adActorSysPrio: number;
  adUserPortKey: number;
  peerNotifyDelay: number;
  arpIPTargets: string[];
  nsIP6Targets: string[];
  adLACPActive: number;
  missedMax: number;
}

export const BOND_MASTER_SCHEMA: ProtoSchema = {
  mode: { no: 1, kind: 'enum' },
  hashPolicy: { no: 2, kind: 'enum' },
  lacpRate: { no: 3, kind: 'enum' },
  arpValidate: { no: 4, kind: 'enum' },
  arpAllTargets: { no: 5, kind: 'enum' },
  primaryIndex: { no: 6, kind: 'uint32', optional: true },
  primaryReselect: { no: 7, kind: 'enum' },
  failOverMac: { no: 8, kind: 'enum' },
  adSelect: { no: 9, kind: 'enum' },
  miimon: { no: 10, kind: 'uint32' },
  upDelay: { no: 11, kind: 'uint32' },
  downDelay: { no: 12, kind: 'uint32' },
  arpInterval: { no: 13, kind: 'uint32' },
  resendIGMP: { no: 14, kind: 'uint32' },
  minLinks: { no: 15, kind: 'uint32' },
  lpInterval: { no: 16, kind: 'uint32' },
  packetsPerSlave: { no: 17, kind: 'uint32' },
  numPeerNotif: { no: 18, kind: 'uint32' },
  tlbDynamicLB: { no: 19, kind: 'uint32' },
  allSlavesActive: { no: 20, kind: 'uint32' },
  useCarrier: { no: 21, kind: 'bool' },
  adActorSysPrio: { no: 22, kind: 'uint32' },
  adUserPortKey: { no: 23, kind: 'uint32' },
  peerNotifyDelay: { no: 24, kind: 'uint32' },
  arpIPTargets: netIP(25, true),
  nsIP6Targets: netIP(26, true),
  adLACPActive: { no: 27, kind: 'enum' },
  missedMax: { no: 28, kind: 'uint32' },
};

export const bondMasterZero = (): BondMasterSpec => ({
  mode: 0,
  hashPolicy: 0,
  lacpRate: 0,
  arpValidate: 0,
  arpAllTargets: 0,
  primaryIndex: null,
  primaryReselect: 0,
  failOverMac: 0,
  adSelect: 0,
  miimon: 0,
  upDelay: 0,
  downDelay: 0,
  arpInterval: 0,
  resendIGMP: 0,
  minLinks: 0,
  lpInterval: 0,
  packetsPerSlave: 0,
  numPeerNotif: 0,
  tlbDynamicLB: 0,
  allSlavesActive: 0,
  useCarrier: false,
  adActorSysPrio: 0,
  adUserPortKey: 0,
  peerNotifyDelay: 0,
  arpIPTargets: [],
  nsIP6Targets: [],
  adLACPActive: 0,
  missedMax: 0,
});

/** bondMasterIsZero: every field zero and no primary, as upstream's IsZero. */
export function bondMasterIsZero(s: BondMasterSpec): boolean {
  for (const [k, v] of Object.entries(s)) {
    if (k === 'primaryIndex' ? v !== null : Array.isArray(v) ? v.length > 0 : v !== 0 && v !== false)
      return false;
  }
  return true;
}

export const bondMasterProto = (s: BondMasterSpec) => ({
  ...s,
  arpIPTargets: s.arpIPTargets.map(ipMessage),
  nsIP6Targets: s.nsIP6Targets.map(ipMessage),
});

export const bondMasterOfProto = (v: unknown): BondMasterSpec => {
  const o = obj(v);
  const out = bondMasterZero();
  for (const k of Object.keys(out) as (keyof BondMasterSpec)[]) {
    if (k === 'arpIPTargets' || k === 'nsIP6Targets' || k === 'primaryIndex' || k === 'useCarrier') continue;
    out[k] = num(o[k]);
  }
  out.primaryIndex = o.primaryIndex === null || o.primaryIndex === undefined ? null : num(o.primaryIndex);
  out.useCarrier = bool(o.useCarrier);
  out.arpIPTargets = ipsOfMessages(o.arpIPTargets);
  out.nsIP6Targets = ipsOfMessages(o.nsIP6Targets);
  return out;
};

/** omit drops a key from a YAML object when upstream's omitempty would. */
const put = (out: Record<string, unknown>, key: string, v: unknown, keep: boolean): void => {
  if (keep) out[key] = v;
};

export function bondMasterYAML(s: BondMasterSpec): Record<string, unknown> {
  const out: Record<string, unknown> = {
    mode: BondModes.text(s.mode),
    xmitHashPolicy: BondXmitHashPolicies.text(s.hashPolicy),
    lacpRate: LACPRates.text(s.lacpRate),
    arpValidate: ARPValidates.text(s.arpValidate),
    arpAllTargets: ARPAllTargetsValues.text(s.arpAllTargets),
  };
  put(out, 'primary', s.primaryIndex, s.primaryIndex !== null);
  out.primaryReselect = PrimaryReselects.text(s.primaryReselect);
  out.failOverMac = FailOverMACs.text(s.failOverMac);
  put(out, 'adSelect', ADSelects.text(s.adSelect), s.adSelect !== 0);
  const ints: [string, number][] = [
    ['miimon', s.miimon],
    ['updelay', s.upDelay],
    ['downdelay', s.downDelay],
    ['arpInterval', s.arpInterval],
    ['resendIgmp', s.resendIGMP],
    ['minLinks', s.minLinks],
    ['lpInterval', s.lpInterval],
    ['packetsPerSlave', s.packetsPerSlave],
    ['numPeerNotif', s.numPeerNotif],
    ['tlbLogicalLb', s.tlbDynamicLB],
    ['allSlavesActive', s.allSlavesActive],
  ];
  for (const [k, v] of ints) put(out, k, v, v !== 0);
  put(out, 'useCarrier', true, s.useCarrier);
  put(out, 'adActorSysPrio', s.adActorSysPrio, s.adActorSysPrio !== 0);
  put(out, 'adUserPortKey', s.adUserPortKey, s.adUserPortKey !== 0);
  put(out, 'peerNotifyDelay', s.peerNotifyDelay, s.peerNotifyDelay !== 0);
  put(out, 'arpIpTargets', s.arpIPTargets, s.arpIPTargets.length > 0);
  put(out, 'nsIp6Targets', s.nsIP6Targets, s.nsIP6Targets.length > 0);
  put(out, 'adLacpActive', ADLACPActives.text(s.adLACPActive), s.adLACPActive !== 0);
  put(out, 'missedMax', s.missedMax, s.missedMax !== 0);
  return out;
}

export const bondMasterOfYAML = (v: unknown): BondMasterSpec => {
  const o = obj(v);
  return {
    mode: enumOf(BondModes, o.mode),
    hashPolicy: enumOf(BondXmitHashPolicies, o.xmitHashPolicy),
    lacpRate: enumOf(LACPRates, o.lacpRate),
    arpValidate: enumOf(ARPValidates, o.arpValidate),
    arpAllTargets: enumOf(ARPAllTargetsValues, o.arpAllTargets),
    primaryIndex: o.primary === undefined || o.primary === null ? null : num(o.primary),
    primaryReselect: enumOf(PrimaryReselects, o.primaryReselect),
    failOverMac: enumOf(FailOverMACs, o.failOverMac),
    adSelect: enumOf(ADSelects, o.adSelect),
    miimon: num(o.miimon),
    upDelay: num(o.updelay),
    downDelay: num(o.downdelay),
    arpInterval: num(o.arpInterval),
    resendIGMP: num(o.resendIgmp),
    minLinks: num(o.minLinks),
    lpInterval: num(o.lpInterval),
    packetsPerSlave: num(o.packetsPerSlave),
    numPeerNotif: num(o.numPeerNotif),
    tlbDynamicLB: num(o.tlbLogicalLb),
    allSlavesActive: num(o.allSlavesActive),
    useCarrier: bool(o.useCarrier),
    adActorSysPrio: num(o.adActorSysPrio),
    adUserPortKey: num(o.adUserPortKey),
    peerNotifyDelay: num(o.peerNotifyDelay),
    arpIPTargets: strs(o.arpIpTargets),
    nsIP6Targets: strs(o.nsIp6Targets),
    adLACPActive: enumOf(ADLACPActives, o.adLacpActive),
    missedMax: num(o.missedMax),
  };
};

/** BridgeMasterSpec is a bridge's STP and VLAN filtering switches. */
export interface BridgeMasterSpec {
  stp: { enabled: boolean };
  vlan: { filteringEnabled: boolean };
}

export const BRIDGE_MASTER_SCHEMA: ProtoSchema = {
  stp: { no: 1, kind: 'message', schema: { enabled: { no: 1, kind: 'bool' } } },
  vlan: { no: 2, kind: 'message', schema: { filteringEnabled: { no: 1, kind: 'bool' } } },
};
export const bridgeMasterZero = (): BridgeMasterSpec => ({
  stp: { enabled: false },
  vlan: { filteringEnabled: false },
});
export const bridgeMasterIsZero = (s: BridgeMasterSpec): boolean =>
  !s.stp.enabled && !s.vlan.filteringEnabled;
export const bridgeMasterYAML = (s: BridgeMasterSpec) => ({
  ...(s.stp.enabled ? { stp: { enabled: true } } : {}),
  ...(s.vlan.filteringEnabled ? { vlan: { filteringEnabled: true } } : {}),
});
export const bridgeMasterOf = (v: unknown): BridgeMasterSpec => {
  const o = obj(v);
  return {
    stp: { enabled: bool(obj(o.stp).enabled) },
    vlan: { filteringEnabled: bool(obj(o.vlan).filteringEnabled) },
  };
};

/** VRFMasterSpec is the routing table a VRF binds. */
export interface VRFMasterSpec {
  table: number;
}
export const VRF_MASTER_SCHEMA: ProtoSchema = { table: { no: 1, kind: 'enum' } };
export const vrfMasterYAML = (s: VRFMasterSpec) => ({ table: RoutingTables.text(s.table) });
export const vrfMasterOfYAML = (v: unknown): VRFMasterSpec => ({
  table: enumOf(RoutingTables, obj(v).table),
});

/** WireguardPeer is one peer; the keepalive interval is held in milliseconds. */
export interface WireguardPeer {
  publicKey: string;
  presharedKey: string;
  endpoint: string;
  persistentKeepaliveInterval: number;
  allowedIPs: string[];
}

/** WireguardSpec is a WireGuard link's keys, port, mark and peers. */
export interface WireguardSpec {
  privateKey: string;
  publicKey: string;
  listenPort: number;
  firewallMark: number;
  peers: WireguardPeer[];
}

const WIREGUARD_PEER_SCHEMA: ProtoSchema = {
  publicKey: { no: 1, kind: 'string' },
  presharedKey: { no: 2, kind: 'string' },
  endpoint: { no: 3, kind: 'string' },
  persistentKeepaliveInterval: { no: 4, kind: 'duration' },
  allowedIPs: netIPPrefix(5, true),
};

export const WIREGUARD_SCHEMA: ProtoSchema = {
  privateKey: { no: 1, kind: 'string' },
  publicKey: { no: 2, kind: 'string' },
  listenPort: { no: 3, kind: 'int64' },
  firewallMark: { no: 4, kind: 'int64' },
  peers: { no: 5, kind: 'message', schema: WIREGUARD_PEER_SCHEMA, repeated: true },
};

export const wireguardZero = (): WireguardSpec => ({
  privateKey: '',
  publicKey: '',
  listenPort: 0,
  firewallMark: 0,
  peers: [],
});
/** wireguardIsZero is yaml's omitempty test: every field empty (upstream's IsZero ignores publicKey). */
export const wireguardIsZero = (s: WireguardSpec): boolean =>
  s.privateKey === '' &&
  s.publicKey === '' &&
  s.listenPort === 0 &&
  s.firewallMark === 0 &&
  s.peers.length === 0;

export const wireguardProto = (s: WireguardSpec) => ({
  ...s,
  peers: s.peers.map((p) => ({ ...p, allowedIPs: p.allowedIPs.map(prefixMessage) })),
});
export const wireguardOfProto = (v: unknown): WireguardSpec => {
  const o = obj(v);
  return {
    privateKey: str(o.privateKey),
    publicKey: str(o.publicKey),
    listenPort: num(o.listenPort),
    firewallMark: num(o.firewallMark),
    peers: list(o.peers).map((x) => {
      const p = obj(x);
      return {
        publicKey: str(p.publicKey),
        presharedKey: str(p.presharedKey),
        endpoint: str(p.endpoint),
        persistentKeepaliveInterval: num(p.persistentKeepaliveInterval),
        allowedIPs: prefixesOfMessages(p.allowedIPs),
      };
    }),
  };
};

export const wireguardYAML = (s: WireguardSpec) => ({
  ...(s.privateKey ? { privateKey: s.privateKey } : {}),
  ...(s.publicKey ? { publicKey: s.publicKey } : {}),
  listenPort: s.listenPort,
  firewallMark: s.firewallMark,
  peers: s.peers.map((p) => ({
    publicKey: p.publicKey,
    presharedKey: p.presharedKey,
    endpoint: p.endpoint,
    persistentKeepaliveInterval: goDuration(p.persistentKeepaliveInterval),
    allowedIPs: p.allowedIPs,
  })),
});
export const wireguardOfYAML = (v: unknown): WireguardSpec => {
  const o = obj(v);
  return {
    privateKey: str(o.privateKey),
    publicKey: str(o.publicKey),
    listenPort: num(o.listenPort),
    firewallMark: num(o.firewallMark),
    peers: list(o.peers).map((x) => {
      const p = obj(x);
      const ka = p.persistentKeepaliveInterval;
      return {
        publicKey: str(p.publicKey),
        presharedKey: str(p.presharedKey),
        endpoint: str(p.endpoint),
        persistentKeepaliveInterval: typeof ka === 'string' ? parseGoDuration(ka) : num(ka),
        allowedIPs: strs(p.allowedIPs),
      };
    }),
  };
};
