// Routes: struct rtmsg { u8 family, dst_len, src_len, tos, table, protocol, scope, type; u32 flags } and
// RTA_*. The u8 rtm_table only names tables below 256: RTA_TABLE (u32) carries any, and wins on decode.
import {
  type Attr,
  attrNested,
  attrU8,
  attrU32,
  concat,
  type Encoded,
  nla,
  nlaNest,
  nlaU8,
  nlaU32,
  parseAttrs,
  when,
} from './attr.js';
import * as C from './constants.js';
import { ipBytes, ipString } from './ip.js';

/** RTA_METRICS, the RTAX_* values this code names (others are kept by number). */
export interface RouteMetrics {
  readonly mtu?: number;
  readonly advmss?: number;
  readonly hoplimit?: number;
  readonly window?: number;
  readonly initcwnd?: number;
  readonly initrwnd?: number;
  /** RTAX_LOCK: bit (1 << RTAX_x) locks metric x */
  readonly lock?: number;
  /** any other RTAX_* by number */
  readonly other?: Readonly<Record<number, number>>;
}

export interface RouteAttrs {
  readonly family?: number;
  readonly dstLen?: number;
  readonly srcLen?: number;
  readonly tos?: number;
  /** RT_TABLE_* or any table id (sent in RTA_TABLE too) */
  readonly table?: number;
  /** RTPROT_* */
  readonly protocol?: number;
  /** RT_SCOPE_* */
  readonly scope?: number;
  /** RTN_* */
  readonly type?: number;
  /** RTM_F_* / RTNH_F_* (RTNH_F_ONLINK: the gateway is on the link even if no prefix says so) */
  readonly flags?: number;
  readonly dst?: string;
  readonly src?: string;
  readonly gateway?: string;
  readonly oif?: number;
  readonly iif?: number;
  /** RTA_PRIORITY: the metric */
  readonly priority?: number;
  readonly prefsrc?: string;
  readonly metrics?: RouteMetrics;
  /** RTA_PREF: an IPv6 router preference (ICMPV6_ROUTER_PREF_*) */
  readonly pref?: number;
  readonly mark?: number;
}

export interface Route extends RouteAttrs {
  readonly family: number;
  readonly dstLen: number;
  readonly srcLen: number;
  readonly tos: number;
  readonly table: number;
  readonly protocol: number;
  readonly scope: number;
  readonly type: number;
  readonly flags: number;
  readonly unknown: readonly Attr[];
}

const NAMED_METRICS: readonly [Exclude<keyof RouteMetrics, 'other'>, number][] = [
  ['lock', C.RTAX_LOCK],
  ['mtu', C.RTAX_MTU],
  ['window', C.RTAX_WINDOW],
  ['advmss', C.RTAX_ADVMSS],
  ['hoplimit', C.RTAX_HOPLIMIT],
  ['initcwnd', C.RTAX_INITCWND],
  ['initrwnd', C.RTAX_INITRWND],
];
const METRIC_BY_TYPE = new Map(NAMED_METRICS.map(([k, t]) => [t, k]));

function encodeMetrics(m: RouteMetrics): Buffer | undefined {
  const parts: Encoded[] = NAMED_METRICS.map(([k, t]) => when(m[k], (v) => nlaU32(t, v)));
  for (const [t, v] of Object.entries(m.other ?? {})) parts.push(nlaU32(Number(t), v));
  return parts.some(Boolean) ? nlaNest(C.RTA_METRICS, parts) : undefined;
}

function decodeMetrics(attrs: readonly Attr[]): RouteMetrics {
  const m: Record<string, unknown> = {};
  const other: Record<number, number> = {};
  for (const a of attrs) {
    const k = METRIC_BY_TYPE.get(a.type);
    // RTAX_CC_ALGO is a string: kept out of the numbers
    if (k) m[k] = attrU32(a);
    else if (a.type !== C.RTAX_CC_ALGO) other[a.type] = attrU32(a);
  }
  if (Object.keys(other).length) m.other = other;
  return m as RouteMetrics;
}

/** encodeRoute is an RTM_*ROUTE payload. */
export function encodeRoute(r: RouteAttrs): Buffer {
  const hdr = Buffer.alloc(C.SIZEOF_RTMSG);
  const table = r.table ?? 0;
  hdr.writeUInt8(r.family ?? 0, 0);
  hdr.writeUInt8(r.dstLen ?? 0, 1);
  hdr.writeUInt8(r.srcLen ?? 0, 2);
  hdr.writeUInt8(r.tos ?? 0, 3);
  hdr.writeUInt8(table < 256 ? table : C.RT_TABLE_UNSPEC, 4);
  hdr.writeUInt8(r.protocol ?? 0, 5);
  hdr.writeUInt8(r.scope ?? 0, 6);
  hdr.writeUInt8(r.type ?? 0, 7);
  hdr.writeUInt32LE((r.flags ?? 0) >>> 0, 8);
  return concat([
    hdr,
    when(r.table, (v) => nlaU32(C.RTA_TABLE, v)),
    when(r.dst, (v) => nla(C.RTA_DST, ipBytes(v))),
    when(r.src, (v) => nla(C.RTA_SRC, ipBytes(v))),
    when(r.gateway, (v) => nla(C.RTA_GATEWAY, ipBytes(v))),
    when(r.oif, (v) => nlaU32(C.RTA_OIF, v)),
    when(r.iif, (v) => nlaU32(C.RTA_IIF, v)),
    when(r.priority, (v) => nlaU32(C.RTA_PRIORITY, v)),
    when(r.prefsrc, (v) => nla(C.RTA_PREFSRC, ipBytes(v))),
    when(r.metrics, encodeMetrics),
    when(r.pref, (v) => nlaU8(C.RTA_PREF, v)),
    when(r.mark, (v) => nlaU32(C.RTA_MARK, v)),
  ]);
}

/** decodeRoute reads an RTM_NEWROUTE / RTM_DELROUTE payload. */
export function decodeRoute(data: Buffer): Route {
  if (data.length < C.SIZEOF_RTMSG) throw new RangeError(`rtmsg too short (${data.length} bytes)`);
  const r: Record<string, unknown> = {
    family: data.readUInt8(0),
    dstLen: data.readUInt8(1),
    srcLen: data.readUInt8(2),
    tos: data.readUInt8(3),
    table: data.readUInt8(4),
    protocol: data.readUInt8(5),
    scope: data.readUInt8(6),
    type: data.readUInt8(7),
    flags: data.readUInt32LE(8),
  };
  const unknown: Attr[] = [];
  for (const a of parseAttrs(data, C.SIZEOF_RTMSG)) {
    switch (a.type) {
      case C.RTA_TABLE:
        r.table = attrU32(a);
        break;
      case C.RTA_DST:
        r.dst = ipString(a.data);
        break;
      case C.RTA_SRC:
        r.src = ipString(a.data);
        break;
      case C.RTA_GATEWAY:
        r.gateway = ipString(a.data);
        break;
      case C.RTA_OIF:
        r.oif = attrU32(a);
        break;
      case C.RTA_IIF:
        r.iif = attrU32(a);
        break;
      case C.RTA_PRIORITY:
        r.priority = attrU32(a);
        break;
      case C.RTA_PREFSRC:
        r.prefsrc = ipString(a.data);
        break;
      case C.RTA_METRICS:
        r.metrics = decodeMetrics(attrNested(a));
        break;
      case C.RTA_PREF:
        r.pref = attrU8(a);
        break;
      case C.RTA_MARK:
        r.mark = attrU32(a);
        break;
      default:
        unknown.push(a);
    }
  }
  r.unknown = unknown;
  return r as unknown as Route;
}
