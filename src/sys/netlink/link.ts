// Links: struct ifinfomsg { u8 family; u8 pad; u16 type; s32 index; u32 flags; u32 change } and IFLA_*
// attributes, with the IFLA_LINKINFO nest typed for the kinds Keel's controllers make (vlan, bond,
// bridge, veth, dummy). One shape serves both ways: decodeLink's result can be fed back to encodeLink.
import {
  type Attr,
  attrNested,
  attrS32,
  attrStr,
  attrU8,
  attrU16,
  attrU16be,
  attrU32,
  concat,
  type Encoded,
  nla,
  nlaNest,
  nlaStr,
  nlaU8,
  nlaU16,
  nlaU16be,
  nlaU32,
  parseAttrs,
  when,
} from './attr.js';
import * as C from './constants.js';
import { ipBytes, ipString, macBytes, macString } from './ip.js';

/** IFLA_INFO_DATA of a vlan. */
export interface VlanInfo {
  readonly id?: number;
  /** ETH_P_8021Q (0x8100, the default) or ETH_P_8021AD (0x88a8) */
  readonly protocol?: number;
  /** struct ifla_vlan_flags: VLAN_FLAG_* bits and which of them to change */
  readonly flags?: { readonly flags: number; readonly mask: number };
}

/**
 * IFLA_INFO_DATA of a bond, in the bonding driver's numbers (mode 4 = 802.3ad, xmitHashPolicy 1 =
 * layer3+4, lacpRate 1 = fast, ...); times in milliseconds. The settings upstream's BondMasterSpec carries.
 */
export interface BondInfo {
  readonly mode?: number;
  readonly activeSlave?: number;
  readonly miimon?: number;
  readonly updelay?: number;
  readonly downdelay?: number;
  readonly useCarrier?: boolean;
  readonly arpInterval?: number;
  readonly arpIpTargets?: readonly string[];
  readonly arpValidate?: number;
  readonly arpAllTargets?: number;
  /** the primary slave's ifindex */
  readonly primary?: number;
  readonly primaryReselect?: number;
  readonly failOverMac?: number;
  readonly xmitHashPolicy?: number;
  readonly resendIgmp?: number;
  readonly numPeerNotif?: number;
  readonly allSlavesActive?: boolean;
  readonly minLinks?: number;
  readonly lpInterval?: number;
  readonly packetsPerSlave?: number;
  readonly lacpRate?: number;
  readonly adSelect?: number;
  readonly adActorSysPrio?: number;
  readonly adUserPortKey?: number;
  readonly adActorSystem?: string;
  readonly tlbDynamicLb?: boolean;
  readonly peerNotifyDelay?: number;
  readonly adLacpActive?: boolean;
  readonly missedMax?: number;
  readonly nsIp6Targets?: readonly string[];
}

/** IFLA_INFO_DATA of a bridge; the STP times are in centiseconds (USER_HZ), as the kernel takes them. */
export interface BridgeInfo {
  readonly stp?: boolean;
  readonly vlanFiltering?: boolean;
  readonly vlanProtocol?: number;
  readonly vlanDefaultPvid?: number;
  readonly forwardDelay?: number;
  readonly helloTime?: number;
  readonly maxAge?: number;
  readonly ageingTime?: number;
  readonly priority?: number;
}

/** IFLA_INFO_DATA of a veth: the peer, as an ifinfomsg and its attributes. */
export interface VethInfo {
  readonly peer?: LinkAttrs;
}

export interface LinkInfo {
  /** IFLA_INFO_KIND: 'dummy', 'vlan', 'bond', 'bridge', 'veth', ... */
  readonly kind?: string;
  /** IFLA_INFO_SLAVE_KIND: the master's kind when this link is enslaved ('bond', 'bridge') */
  readonly slaveKind?: string;
  readonly vlan?: VlanInfo;
  readonly bond?: BondInfo;
  readonly bridge?: BridgeInfo;
  readonly veth?: VethInfo;
  /** IFLA_INFO_DATA as attributes: all of them on decode; sent only for a kind without a typed view */
  readonly data?: readonly Attr[];
  /** IFLA_INFO_SLAVE_DATA as attributes */
  readonly slaveData?: readonly Attr[];
}

/** A link's header and attributes; everything optional, so one shape builds requests too. */
export interface LinkAttrs {
  readonly family?: number;
  /** ARPHRD_* (1 = ether, 772 = loopback) */
  readonly type?: number;
  readonly index?: number;
  /** IFF_* */
  readonly flags?: number;
  /** which IFF_* bits a request changes */
  readonly change?: number;
  readonly name?: string;
  readonly mtu?: number;
  readonly address?: string;
  readonly broadcast?: string;
  readonly permAddress?: string;
  /** IFLA_LINK: the lower link's ifindex (a vlan's parent, a veth's peer) */
  readonly link?: number;
  /** IFLA_MASTER: the bond or bridge this link is enslaved to; 0 in a request releases it */
  readonly master?: number;
  /** IF_OPER_* */
  readonly operState?: number;
  readonly txqlen?: number;
  readonly carrier?: boolean;
  readonly altNames?: readonly string[];
  readonly alias?: string;
  readonly group?: number;
  readonly minMtu?: number;
  readonly maxMtu?: number;
  readonly numTxQueues?: number;
  readonly numRxQueues?: number;
  readonly promiscuity?: number;
  readonly linkNetnsId?: number;
  /** IFLA_NET_NS_FD / IFLA_NET_NS_PID: move the link (or make a veth peer) in that namespace */
  readonly netnsFd?: number;
  readonly netnsPid?: number;
  readonly info?: LinkInfo;
}

/** A decoded link: the header fields are always there, and attributes this code does not read kept raw. */
export interface Link extends LinkAttrs {
  readonly family: number;
  readonly type: number;
  readonly index: number;
  readonly flags: number;
  readonly change: number;
  readonly altNames: readonly string[];
  readonly unknown: readonly Attr[];
}

export const OPER_STATES = ['unknown', 'notpresent', 'down', 'lowerlayerdown', 'testing', 'dormant', 'up'];

/** operStateName is iproute2's word for an IF_OPER_* value ('UP', 'DOWN', 'UNKNOWN'...). */
export const operStateName = (s: number | undefined): string => (OPER_STATES[s ?? 0] ?? `${s}`).toUpperCase();

// --- kind-specific data ---

const bool = (a: Attr) => attrU8(a) !== 0;
const ipList = (a: Attr) => attrNested(a).map((x) => ipString(x.data));
const ipNest = (type: number, ips: readonly string[]) =>
  nlaNest(
    type,
    ips.map((ip, i) => nla(i, ipBytes(ip))),
  );

function decodeVlan(attrs: readonly Attr[]): VlanInfo {
  const v: { -readonly [K in keyof VlanInfo]: VlanInfo[K] } = {};
  for (const a of attrs) {
    if (a.type === C.IFLA_VLAN_ID) v.id = attrU16(a);
    else if (a.type === C.IFLA_VLAN_PROTOCOL) v.protocol = attrU16be(a);
    else if (a.type === C.IFLA_VLAN_FLAGS && a.data.length >= 8)
      v.flags = { flags: a.data.readUInt32LE(0), mask: a.data.readUInt32LE(4) };
  }
  return v;
}

function encodeVlan(v: VlanInfo): Encoded[] {
  return [
    when(v.id, (x) => nlaU16(C.IFLA_VLAN_ID, x)),
    when(v.protocol, (x) => nlaU16be(C.IFLA_VLAN_PROTOCOL, x)),
    when(v.flags, (f) => {
      const b = Buffer.alloc(8);
      b.writeUInt32LE(f.flags, 0);
      b.writeUInt32LE(f.mask, 4);
      return nla(C.IFLA_VLAN_FLAGS, b);
    }),
  ];
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

// one table per bond attribute: its field, its wire width
type BondScalar = Exclude<keyof BondInfo, 'arpIpTargets' | 'nsIp6Targets' | 'adActorSystem'>;
const BOND: readonly [BondScalar, number, 'u8' | 'u16' | 'u32' | 'bool'][] = [
  ['mode', C.IFLA_BOND_MODE, 'u8'],
  ['activeSlave', C.IFLA_BOND_ACTIVE_SLAVE, 'u32'],
  ['miimon', C.IFLA_BOND_MIIMON, 'u32'],
  ['updelay', C.IFLA_BOND_UPDELAY, 'u32'],
  ['downdelay', C.IFLA_BOND_DOWNDELAY, 'u32'],
  ['useCarrier', C.IFLA_BOND_USE_CARRIER, 'bool'],
  ['arpInterval', C.IFLA_BOND_ARP_INTERVAL, 'u32'],
  ['arpValidate', C.IFLA_BOND_ARP_VALIDATE, 'u32'],
  ['arpAllTargets', C.IFLA_BOND_ARP_ALL_TARGETS, 'u32'],
  ['primary', C.IFLA_BOND_PRIMARY, 'u32'],
  ['primaryReselect', C.IFLA_BOND_PRIMARY_RESELECT, 'u8'],
  ['failOverMac', C.IFLA_BOND_FAIL_OVER_MAC, 'u8'],
  ['xmitHashPolicy', C.IFLA_BOND_XMIT_HASH_POLICY, 'u8'],
  ['resendIgmp', C.IFLA_BOND_RESEND_IGMP, 'u32'],
  ['numPeerNotif', C.IFLA_BOND_NUM_PEER_NOTIF, 'u8'],
  ['allSlavesActive', C.IFLA_BOND_ALL_SLAVES_ACTIVE, 'bool'],
  ['minLinks', C.IFLA_BOND_MIN_LINKS, 'u32'],
  ['lpInterval', C.IFLA_BOND_LP_INTERVAL, 'u32'],
  ['packetsPerSlave', C.IFLA_BOND_PACKETS_PER_SLAVE, 'u32'],
  ['lacpRate', C.IFLA_BOND_AD_LACP_RATE, 'u8'],
  ['adSelect', C.IFLA_BOND_AD_SELECT, 'u8'],
  ['adActorSysPrio', C.IFLA_BOND_AD_ACTOR_SYS_PRIO, 'u16'],
  ['adUserPortKey', C.IFLA_BOND_AD_USER_PORT_KEY, 'u16'],
  ['tlbDynamicLb', C.IFLA_BOND_TLB_DYNAMIC_LB, 'bool'],
  ['peerNotifyDelay', C.IFLA_BOND_PEER_NOTIF_DELAY, 'u32'],
  ['adLacpActive', C.IFLA_BOND_AD_LACP_ACTIVE, 'bool'],
  ['missedMax', C.IFLA_BOND_MISSED_MAX, 'u8'],
];
const BOND_BY_TYPE = new Map(BOND.map((e) => [e[1], e]));

function decodeBond(attrs: readonly Attr[]): BondInfo {
  const b: Record<string, unknown> = {};
  for (const a of attrs) {
    const e = BOND_BY_TYPE.get(a.type);
    if (e) {
      const [field, , width] = e;
      b[field] =
        width === 'bool' ? bool(a) : width === 'u8' ? attrU8(a) : width === 'u16' ? attrU16(a) : attrU32(a);
    } else if (a.type === C.IFLA_BOND_ARP_IP_TARGET) b.arpIpTargets = ipList(a);
    else if (a.type === C.IFLA_BOND_NS_IP6_TARGET) b.nsIp6Targets = ipList(a);
    else if (a.type === C.IFLA_BOND_AD_ACTOR_SYSTEM) b.adActorSystem = macString(a.data);
  }
  return b as BondInfo;
}

function encodeBond(b: BondInfo): Encoded[] {
  const out: Encoded[] = BOND.map(([field, type, width]) => {
    const v = b[field];
    if (v === undefined) return undefined;
    const n = typeof v === 'boolean' ? (v ? 1 : 0) : v;
    return width === 'u32' ? nlaU32(type, n) : width === 'u16' ? nlaU16(type, n) : nlaU8(type, n);
  });
  out.push(
    when(b.arpIpTargets, (ips) => ipNest(C.IFLA_BOND_ARP_IP_TARGET, ips)),
    when(b.nsIp6Targets, (ips) => ipNest(C.IFLA_BOND_NS_IP6_TARGET, ips)),
    when(b.adActorSystem, (m) => nla(C.IFLA_BOND_AD_ACTOR_SYSTEM, macBytes(m))),
  );
  return out;
}

function decodeBridge(attrs: readonly Attr[]): BridgeInfo {
  const b: Mutable<BridgeInfo> = {};
  for (const a of attrs) {
    switch (a.type) {
      case C.IFLA_BR_STP_STATE:
        b.stp = attrU32(a) !== 0;
        break;
      case C.IFLA_BR_VLAN_FILTERING:
        b.vlanFiltering = bool(a);
        break;
      case C.IFLA_BR_VLAN_PROTOCOL:
        b.vlanProtocol = attrU16be(a);
        break;
      case C.IFLA_BR_VLAN_DEFAULT_PVID:
        b.vlanDefaultPvid = attrU16(a);
        break;
      case C.IFLA_BR_FORWARD_DELAY:
        b.forwardDelay = attrU32(a);
        break;
      case C.IFLA_BR_HELLO_TIME:
        b.helloTime = attrU32(a);
        break;
      case C.IFLA_BR_MAX_AGE:
        b.maxAge = attrU32(a);
        break;
      case C.IFLA_BR_AGEING_TIME:
        b.ageingTime = attrU32(a);
        break;
      case C.IFLA_BR_PRIORITY:
        b.priority = attrU16(a);
        break;
    }
  }
  return b;
}

function encodeBridge(b: BridgeInfo): Encoded[] {
  return [
    when(b.stp, (v) => nlaU32(C.IFLA_BR_STP_STATE, v ? 1 : 0)),
    when(b.vlanFiltering, (v) => nlaU8(C.IFLA_BR_VLAN_FILTERING, v ? 1 : 0)),
    when(b.vlanProtocol, (v) => nlaU16be(C.IFLA_BR_VLAN_PROTOCOL, v)),
    when(b.vlanDefaultPvid, (v) => nlaU16(C.IFLA_BR_VLAN_DEFAULT_PVID, v)),
    when(b.forwardDelay, (v) => nlaU32(C.IFLA_BR_FORWARD_DELAY, v)),
    when(b.helloTime, (v) => nlaU32(C.IFLA_BR_HELLO_TIME, v)),
    when(b.maxAge, (v) => nlaU32(C.IFLA_BR_MAX_AGE, v)),
    when(b.ageingTime, (v) => nlaU32(C.IFLA_BR_AGEING_TIME, v)),
    when(b.priority, (v) => nlaU16(C.IFLA_BR_PRIORITY, v)),
  ];
}

function decodeInfo(attrs: readonly Attr[]): LinkInfo {
  const info: Mutable<LinkInfo> = {};
  let data: Attr | undefined;
  for (const a of attrs) {
    if (a.type === C.IFLA_INFO_KIND) info.kind = attrStr(a);
    else if (a.type === C.IFLA_INFO_SLAVE_KIND) info.slaveKind = attrStr(a);
    else if (a.type === C.IFLA_INFO_DATA) data = a;
    else if (a.type === C.IFLA_INFO_SLAVE_DATA) info.slaveData = attrNested(a);
  }
  if (data) {
    if (info.kind === 'veth') {
      const peer = attrNested(data).find((a) => a.type === C.VETH_INFO_PEER);
      info.veth = peer ? { peer: decodeLink(peer.data) } : {};
    } else {
      const nested = attrNested(data);
      info.data = nested;
      if (info.kind === 'vlan') info.vlan = decodeVlan(nested);
      else if (info.kind === 'bond') info.bond = decodeBond(nested);
      else if (info.kind === 'bridge') info.bridge = decodeBridge(nested);
    }
  }
  return info;
}

function encodeInfo(info: LinkInfo): Buffer {
  let data: Encoded[] | undefined;
  if (info.vlan) data = encodeVlan(info.vlan);
  else if (info.bond) data = encodeBond(info.bond);
  else if (info.bridge) data = encodeBridge(info.bridge);
  else if (info.veth) data = [when(info.veth.peer, (p) => nlaNest(C.VETH_INFO_PEER, [encodeLink(p)]))];
  else if (info.data) data = info.data.map((a) => nla(a.type, a.data));
  return nlaNest(C.IFLA_LINKINFO, [
    when(info.kind, (k) => nlaStr(C.IFLA_INFO_KIND, k)),
    data && nlaNest(C.IFLA_INFO_DATA, data),
    when(info.slaveKind, (k) => nlaStr(C.IFLA_INFO_SLAVE_KIND, k)),
    when(info.slaveData, (d) =>
      nlaNest(
        C.IFLA_INFO_SLAVE_DATA,
        d.map((a) => nla(a.type, a.data)),
      ),
    ),
  ]);
}

// --- the message ---

/** encodeIfinfo writes struct ifinfomsg. */
export function encodeIfinfo(m: LinkAttrs): Buffer {
  const b = Buffer.alloc(C.SIZEOF_IFINFOMSG);
  b.writeUInt8(m.family ?? 0, 0);
  b.writeUInt16LE(m.type ?? 0, 2);
  b.writeInt32LE(m.index ?? 0, 4);
  b.writeUInt32LE((m.flags ?? 0) >>> 0, 8);
  b.writeUInt32LE((m.change ?? 0) >>> 0, 12);
  return b;
}

/** encodeLink is an RTM_*LINK payload: the ifinfomsg, then the attributes that are set. */
export function encodeLink(m: LinkAttrs): Buffer {
  return concat([
    encodeIfinfo(m),
    when(m.name, (v) => nlaStr(C.IFLA_IFNAME, v)),
    when(m.mtu, (v) => nlaU32(C.IFLA_MTU, v)),
    when(m.address, (v) => nla(C.IFLA_ADDRESS, macBytes(v))),
    when(m.broadcast, (v) => nla(C.IFLA_BROADCAST, macBytes(v))),
    when(m.link, (v) => nlaU32(C.IFLA_LINK, v)),
    when(m.master, (v) => nlaU32(C.IFLA_MASTER, v)),
    when(m.txqlen, (v) => nlaU32(C.IFLA_TXQLEN, v)),
    when(m.operState, (v) => nlaU8(C.IFLA_OPERSTATE, v)),
    when(m.carrier, (v) => nlaU8(C.IFLA_CARRIER, v ? 1 : 0)),
    when(m.alias, (v) => nlaStr(C.IFLA_IFALIAS, v)),
    when(m.group, (v) => nlaU32(C.IFLA_GROUP, v)),
    when(m.numTxQueues, (v) => nlaU32(C.IFLA_NUM_TX_QUEUES, v)),
    when(m.numRxQueues, (v) => nlaU32(C.IFLA_NUM_RX_QUEUES, v)),
    when(m.netnsFd, (v) => nlaU32(C.IFLA_NET_NS_FD, v)),
    when(m.netnsPid, (v) => nlaU32(C.IFLA_NET_NS_PID, v)),
    when(m.info, encodeInfo),
  ]);
}

const hw = (a: Attr) => macString(a.data);

/** decodeLink reads an RTM_NEWLINK / RTM_DELLINK payload. */
export function decodeLink(data: Buffer): Link {
  if (data.length < C.SIZEOF_IFINFOMSG) throw new RangeError(`ifinfomsg too short (${data.length} bytes)`);
  const l: Record<string, unknown> = {
    family: data.readUInt8(0),
    type: data.readUInt16LE(2),
    index: data.readInt32LE(4),
    flags: data.readUInt32LE(8),
    change: data.readUInt32LE(12),
  };
  const altNames: string[] = [];
  const unknown: Attr[] = [];
  for (const a of parseAttrs(data, C.SIZEOF_IFINFOMSG)) {
    switch (a.type) {
      case C.IFLA_IFNAME:
        l.name = attrStr(a);
        break;
      case C.IFLA_MTU:
        l.mtu = attrU32(a);
        break;
      case C.IFLA_ADDRESS:
        l.address = hw(a);
        break;
      case C.IFLA_BROADCAST:
        l.broadcast = hw(a);
        break;
      case C.IFLA_PERM_ADDRESS:
        l.permAddress = hw(a);
        break;
      case C.IFLA_LINK:
        l.link = attrU32(a);
        break;
      case C.IFLA_MASTER:
        l.master = attrU32(a);
        break;
      case C.IFLA_OPERSTATE:
        l.operState = attrU8(a);
        break;
      case C.IFLA_TXQLEN:
        l.txqlen = attrU32(a);
        break;
      case C.IFLA_CARRIER:
        l.carrier = attrU8(a) !== 0;
        break;
      case C.IFLA_IFALIAS:
        l.alias = attrStr(a);
        break;
      case C.IFLA_GROUP:
        l.group = attrU32(a);
        break;
      case C.IFLA_MIN_MTU:
        l.minMtu = attrU32(a);
        break;
      case C.IFLA_MAX_MTU:
        l.maxMtu = attrU32(a);
        break;
      case C.IFLA_NUM_TX_QUEUES:
        l.numTxQueues = attrU32(a);
        break;
      case C.IFLA_NUM_RX_QUEUES:
        l.numRxQueues = attrU32(a);
        break;
      case C.IFLA_PROMISCUITY:
        l.promiscuity = attrU32(a);
        break;
      case C.IFLA_LINK_NETNSID:
        l.linkNetnsId = attrS32(a);
        break;
      case C.IFLA_PROP_LIST:
        for (const p of attrNested(a)) if (p.type === C.IFLA_ALT_IFNAME) altNames.push(attrStr(p));
        break;
      case C.IFLA_ALT_IFNAME:
        altNames.push(attrStr(a));
        break;
      case C.IFLA_LINKINFO:
        l.info = decodeInfo(attrNested(a));
        break;
      default:
        unknown.push(a);
    }
  }
  l.altNames = altNames;
  l.unknown = unknown;
  return l as unknown as Link;
}
