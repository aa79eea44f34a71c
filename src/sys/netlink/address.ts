// Addresses: struct ifaddrmsg { u8 family; u8 prefixlen; u8 flags; u8 scope; u32 index } and IFA_*.
// The u8 ifa_flags only holds the low IFA_F_* bits: IFA_FLAGS (u32) carries all of them and wins.
import {
  type Attr,
  attrStr,
  attrU8,
  attrU32,
  concat,
  nla,
  nlaStr,
  nlaU8,
  nlaU32,
  parseAttrs,
  when,
} from './attr.js';
import * as C from './constants.js';
import { ipBytes, ipString } from './ip.js';

/** struct ifa_cacheinfo: lifetimes in seconds (0xffffffff = forever), stamps in hundredths since boot. */
export interface AddressCacheInfo {
  readonly preferred: number;
  readonly valid: number;
  readonly created: number;
  readonly updated: number;
}

export interface AddressAttrs {
  readonly family?: number;
  readonly prefixLen?: number;
  /** IFA_F_* (all 32 bits: sent in IFA_FLAGS as well as the u8 field) */
  readonly flags?: number;
  /** RT_SCOPE_* */
  readonly scope?: number;
  readonly index?: number;
  /** IFA_ADDRESS: the prefix address (the peer's on a point-to-point link) */
  readonly address?: string;
  /** IFA_LOCAL: the local address */
  readonly local?: string;
  readonly label?: string;
  readonly broadcast?: string;
  readonly anycast?: string;
  readonly cacheInfo?: AddressCacheInfo;
  /** IFA_RT_PRIORITY: the metric of the prefix route */
  readonly priority?: number;
  /** IFA_PROTO: who added it (IFAPROT_*) */
  readonly proto?: number;
}

export interface Address extends AddressAttrs {
  readonly family: number;
  readonly prefixLen: number;
  readonly flags: number;
  readonly scope: number;
  readonly index: number;
  readonly unknown: readonly Attr[];
}

/** encodeAddress is an RTM_*ADDR payload. */
export function encodeAddress(a: AddressAttrs): Buffer {
  const hdr = Buffer.alloc(C.SIZEOF_IFADDRMSG);
  hdr.writeUInt8(a.family ?? 0, 0);
  hdr.writeUInt8(a.prefixLen ?? 0, 1);
  hdr.writeUInt8((a.flags ?? 0) & 0xff, 2);
  hdr.writeUInt8(a.scope ?? 0, 3);
  hdr.writeUInt32LE(a.index ?? 0, 4);
  return concat([
    hdr,
    when(a.local, (v) => nla(C.IFA_LOCAL, ipBytes(v))),
    when(a.address, (v) => nla(C.IFA_ADDRESS, ipBytes(v))),
    when(a.broadcast, (v) => nla(C.IFA_BROADCAST, ipBytes(v))),
    when(a.anycast, (v) => nla(C.IFA_ANYCAST, ipBytes(v))),
    when(a.label, (v) => nlaStr(C.IFA_LABEL, v)),
    when(a.flags, (v) => nlaU32(C.IFA_FLAGS, v)),
    when(a.priority, (v) => nlaU32(C.IFA_RT_PRIORITY, v)),
    when(a.proto, (v) => nlaU8(C.IFA_PROTO, v)),
    when(a.cacheInfo, (c) => {
      const b = Buffer.alloc(C.SIZEOF_IFA_CACHEINFO);
      b.writeUInt32LE(c.preferred >>> 0, 0);
      b.writeUInt32LE(c.valid >>> 0, 4);
      b.writeUInt32LE(c.created >>> 0, 8);
      b.writeUInt32LE(c.updated >>> 0, 12);
      return nla(C.IFA_CACHEINFO, b);
    }),
  ]);
}

/** decodeAddress reads an RTM_NEWADDR / RTM_DELADDR payload. */
export function decodeAddress(data: Buffer): Address {
  if (data.length < C.SIZEOF_IFADDRMSG) throw new RangeError(`ifaddrmsg too short (${data.length} bytes)`);
  const a: Record<string, unknown> = {
    family: data.readUInt8(0),
    prefixLen: data.readUInt8(1),
    flags: data.readUInt8(2),
    scope: data.readUInt8(3),
    index: data.readUInt32LE(4),
  };
  const unknown: Attr[] = [];
  for (const x of parseAttrs(data, C.SIZEOF_IFADDRMSG)) {
    switch (x.type) {
      case C.IFA_ADDRESS:
        a.address = ipString(x.data);
        break;
      case C.IFA_LOCAL:
        a.local = ipString(x.data);
        break;
      case C.IFA_BROADCAST:
        a.broadcast = ipString(x.data);
        break;
      case C.IFA_ANYCAST:
        a.anycast = ipString(x.data);
        break;
      case C.IFA_LABEL:
        a.label = attrStr(x);
        break;
      case C.IFA_FLAGS:
        a.flags = attrU32(x);
        break;
      case C.IFA_RT_PRIORITY:
        a.priority = attrU32(x);
        break;
      case C.IFA_PROTO:
        a.proto = attrU8(x);
        break;
      case C.IFA_CACHEINFO:
        if (x.data.length >= C.SIZEOF_IFA_CACHEINFO)
          a.cacheInfo = {
            preferred: x.data.readUInt32LE(0),
            valid: x.data.readUInt32LE(4),
            created: x.data.readUInt32LE(8),
            updated: x.data.readUInt32LE(12),
          };
        break;
      default:
        unknown.push(x);
    }
  }
  a.unknown = unknown;
  return a as unknown as Address;
}
