// Netlink messages: struct nlmsghdr { u32 len; u16 type; u16 flags; u32 seq; u32 pid } (host order, which
// is little-endian on every architecture Keel runs on), the payload, padding to 4 bytes. One datagram
// carries one or more messages; a dump ends with NLMSG_DONE, and a request with NLM_F_ACK with an
// NLMSG_ERROR whose error is 0 (an ack) or a negative errno, optionally followed by extended-ack TLVs.
import { SysError } from '../errno.js';
import { align4, attrStr, attrU32, parseAttrs } from './attr.js';
import * as C from './constants.js';

export interface NlHeader {
  /** the whole message's length, header included, padding excluded */
  readonly len: number;
  readonly type: number;
  readonly flags: number;
  readonly seq: number;
  /** the sender's port id: 0 for the kernel */
  readonly pid: number;
}

export interface NlMessage {
  readonly header: NlHeader;
  /** the payload after the header (a view into the datagram) */
  readonly data: Buffer;
}

/** encodeMessage builds one message; `len` is filled in. */
export function encodeMessage(
  type: number,
  flags: number,
  seq: number,
  payload: Uint8Array = Buffer.alloc(0),
  pid = 0,
): Buffer {
  const len = C.NLMSG_HDRLEN + payload.length;
  const b = Buffer.alloc(align4(len));
  b.writeUInt32LE(len, 0);
  b.writeUInt16LE(type, 4);
  b.writeUInt16LE(flags, 6);
  b.writeUInt32LE(seq >>> 0, 8);
  b.writeUInt32LE(pid >>> 0, 12);
  b.set(payload, C.NLMSG_HDRLEN);
  return b;
}

/** decodeHeader reads a header at `offset`. */
export function decodeHeader(buf: Buffer, offset = 0): NlHeader {
  return {
    len: buf.readUInt32LE(offset),
    type: buf.readUInt16LE(offset + 4),
    flags: buf.readUInt16LE(offset + 6),
    seq: buf.readUInt32LE(offset + 8),
    pid: buf.readUInt32LE(offset + 12),
  };
}

/** parseMessages splits a datagram into its messages; a truncated last message is left out. */
export function parseMessages(buf: Buffer): NlMessage[] {
  const out: NlMessage[] = [];
  let off = 0;
  while (off + C.NLMSG_HDRLEN <= buf.length) {
    const header = decodeHeader(buf, off);
    if (header.len < C.NLMSG_HDRLEN || off + header.len > buf.length) break;
    out.push({ header, data: buf.subarray(off + C.NLMSG_HDRLEN, off + header.len) });
    off += align4(header.len);
  }
  return out;
}

/** What an NLMSG_ERROR (or a dump's NLMSG_DONE) says. */
export interface NlError {
  /** positive errno; 0 is an ack */
  readonly errno: number;
  /** the header of the request this answers (absent in NLMSG_DONE) */
  readonly request?: NlHeader;
  /** NLMSGERR_ATTR_MSG: the kernel's explanation, with NETLINK_EXT_ACK set */
  readonly message?: string;
  /** NLMSGERR_ATTR_OFFS: byte offset of the offending attribute in the request */
  readonly offset?: number;
  /** NLMSGERR_ATTR_MISS_TYPE: the type of a required attribute that was missing */
  readonly missingType?: number;
}

function extAck(buf: Buffer, from: number): Pick<NlError, 'message' | 'offset' | 'missingType'> {
  let message: string | undefined;
  let offset: number | undefined;
  let missingType: number | undefined;
  for (const a of parseAttrs(buf, from)) {
    if (a.type === C.NLMSGERR_ATTR_MSG) message = attrStr(a);
    else if (a.type === C.NLMSGERR_ATTR_OFFS) offset = attrU32(a);
    else if (a.type === C.NLMSGERR_ATTR_MISS_TYPE) missingType = attrU32(a);
  }
  return {
    ...(message !== undefined ? { message } : {}),
    ...(offset !== undefined ? { offset } : {}),
    ...(missingType !== undefined ? { missingType } : {}),
  };
}

/**
 * parseError reads struct nlmsgerr { int error; struct nlmsghdr msg; } — the request's payload follows
 * unless NLM_F_CAPPED says it was left out (NETLINK_CAP_ACK) — then the TLVs when NLM_F_ACK_TLVS is set.
 */
export function parseError(msg: NlMessage): NlError {
  const { data, header } = msg;
  if (data.length < 4) return { errno: 0 };
  const errno = 0 - data.readInt32LE(0) || 0;
  if (data.length < C.SIZEOF_NLMSGERR) return { errno };
  const request = decodeHeader(data, 4);
  let ext = {};
  if (header.flags & C.NLM_F_ACK_TLVS) {
    const echoed = header.flags & C.NLM_F_CAPPED ? C.NLMSG_HDRLEN : align4(request.len);
    ext = extAck(data, 4 + echoed);
  }
  return { errno, request, ...ext };
}

/** parseDone reads a dump's NLMSG_DONE: an int (a negative errno if the dump failed), then any TLVs. */
export function parseDone(msg: NlMessage): NlError {
  const { data, header } = msg;
  if (data.length < 4) return { errno: 0 };
  const errno = 0 - data.readInt32LE(0) || 0;
  return { errno, ...(header.flags & C.NLM_F_ACK_TLVS ? extAck(data, 4) : {}) };
}

const TYPE_NAMES = new Map<number, string>(
  Object.entries(C)
    .filter(([k]) => k.startsWith('RTM_'))
    .map(([k, v]) => [v as number, k]),
);

/** typeName names a message type ('RTM_NEWLINK', 'NLMSG_ERROR', or the number). */
export function typeName(type: number): string {
  if (type === C.NLMSG_ERROR) return 'NLMSG_ERROR';
  if (type === C.NLMSG_DONE) return 'NLMSG_DONE';
  if (type === C.NLMSG_NOOP) return 'NLMSG_NOOP';
  if (type === C.NLMSG_OVERRUN) return 'NLMSG_OVERRUN';
  return TYPE_NAMES.get(type) ?? String(type);
}

/**
 * NetlinkError is a SysError (so isSysError(e, 'EEXIST') holds) for a request the kernel refused, or one
 * that could not complete (ETIMEDOUT, ESHUTDOWN on a closed socket). `call` names the operation —
 * `createLink("br0"): EEXIST (file exists)` — and the kernel's extended-ack text follows when it sent one.
 */
export class NetlinkError extends SysError {
  /** NLMSGERR_ATTR_MSG, when the kernel explained (a local failure's detail only goes in the message) */
  readonly extAck: string | undefined;
  /** NLMSGERR_ATTR_OFFS, the offending attribute's offset in the request */
  readonly attrOffset: number | undefined;

  constructor(
    call: string,
    errno: number,
    args: readonly unknown[] = [],
    detail?: Partial<NlError> | string,
  ) {
    super(call, errno, args);
    Object.defineProperty(this, 'name', { value: 'NetlinkError', enumerable: false });
    const d = typeof detail === 'string' ? undefined : detail;
    this.extAck = d?.message;
    this.attrOffset = d?.offset;
    const more = typeof detail === 'string' ? detail : d?.message;
    if (more) this.message += `: ${more}`;
  }
}

export const isNetlinkError = (e: unknown, ...codes: string[]): e is NetlinkError =>
  e instanceof NetlinkError && (codes.length === 0 || codes.includes(e.code));
