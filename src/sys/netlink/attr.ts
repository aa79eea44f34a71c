// Netlink attributes (struct nlattr): a u16 length (header included, padding not), a u16 type whose top two
// bits are NLA_F_NESTED and NLA_F_NET_BYTEORDER, the value, then padding to 4 bytes. Parsing never throws:
// a truncated or malformed tail ends the list, so a kernel newer than this code cannot break a decoder.
import { NLA_F_NESTED, NLA_HDRLEN, NLA_TYPE_MASK } from './constants.js';

/** One attribute as found: its type with the flag bits removed, and its value (a view, not a copy). */
export interface Attr {
  readonly type: number;
  /** NLA_F_NESTED was set (a nest can also come without it: older kernel code does not set it) */
  readonly nested: boolean;
  readonly data: Buffer;
}

/** align4 rounds a length up to NLA_ALIGNTO (= NLMSG_ALIGNTO = 4). */
export const align4 = (n: number): number => (n + 3) & ~3;

/** parseAttrs splits `buf[offset, end)` into attributes; a malformed tail is ignored. */
export function parseAttrs(buf: Buffer, offset = 0, end = buf.length): Attr[] {
  const out: Attr[] = [];
  while (offset + NLA_HDRLEN <= end) {
    // byte reads, not readUInt16LE: the loop runs for every attribute of every dump, and cold (first boot
    // runs, under emulation) the checked call cost more than the rest of the decoding
    const len = buf[offset]! | (buf[offset + 1]! << 8);
    const type = buf[offset + 2]! | (buf[offset + 3]! << 8);
    if (len < NLA_HDRLEN || offset + len > end) break;
    out.push({
      type: type & NLA_TYPE_MASK,
      nested: (type & NLA_F_NESTED) !== 0,
      data: buf.subarray(offset + NLA_HDRLEN, offset + len),
    });
    offset += align4(len);
  }
  return out;
}

// --- reading values: short or empty values read as 0 / '' rather than throwing ---

export const attrU8 = (a: Attr): number => (a.data.length >= 1 ? a.data.readUInt8(0) : 0);
export const attrU16 = (a: Attr): number => (a.data.length >= 2 ? a.data.readUInt16LE(0) : 0);
export const attrU16be = (a: Attr): number => (a.data.length >= 2 ? a.data.readUInt16BE(0) : 0);
export const attrU32 = (a: Attr): number => (a.data.length >= 4 ? a.data.readUInt32LE(0) : 0);
export const attrS32 = (a: Attr): number => (a.data.length >= 4 ? a.data.readInt32LE(0) : 0);
/** attrStr reads a NUL-terminated string (a missing NUL is tolerated). */
export function attrStr(a: Attr): string {
  const nul = a.data.indexOf(0);
  return a.data.toString('utf8', 0, nul === -1 ? a.data.length : nul);
}
/** attrNested parses a nest's value as attributes. */
export const attrNested = (a: Attr): Attr[] => parseAttrs(a.data);

// --- building: each returns one encoded, padded attribute; undefined values are left out by concat ---

/** Encoded is one or more encoded attributes, or nothing. */
export type Encoded = Buffer | undefined | null | false;

/** nla encodes an attribute with a raw value. */
export function nla(type: number, value: Uint8Array): Buffer {
  const len = NLA_HDRLEN + value.length;
  const b = Buffer.alloc(align4(len));
  b.writeUInt16LE(len, 0);
  b.writeUInt16LE(type, 2);
  b.set(value, NLA_HDRLEN);
  return b;
}

const fixed = (size: number, write: (b: Buffer) => void): Buffer => {
  const b = Buffer.alloc(size);
  write(b);
  return b;
};

export const nlaU8 = (type: number, v: number): Buffer =>
  nla(
    type,
    fixed(1, (b) => b.writeUInt8(v)),
  );
export const nlaU16 = (type: number, v: number): Buffer =>
  nla(
    type,
    fixed(2, (b) => b.writeUInt16LE(v)),
  );
/** nlaU16be is a __be16 value (VLAN and bridge protocol numbers). */
export const nlaU16be = (type: number, v: number): Buffer =>
  nla(
    type,
    fixed(2, (b) => b.writeUInt16BE(v)),
  );
export const nlaU32 = (type: number, v: number): Buffer =>
  nla(
    type,
    fixed(4, (b) => b.writeUInt32LE(v)),
  );
export const nlaS32 = (type: number, v: number): Buffer =>
  nla(
    type,
    fixed(4, (b) => b.writeInt32LE(v)),
  );
/** nlaStr is a NUL-terminated string (NLA_STRING / NLA_NUL_STRING both accept it). */
export const nlaStr = (type: number, s: string): Buffer => nla(type, Buffer.from(`${s}\0`, 'utf8'));
/** nlaFlag is a present-or-absent attribute with no value. */
export const nlaFlag = (type: number): Buffer => nla(type, Buffer.alloc(0));
/** nlaNest wraps encoded attributes (or a struct followed by them) in a nest marked NLA_F_NESTED. */
export const nlaNest = (type: number, children: readonly Encoded[]): Buffer =>
  nla(type | NLA_F_NESTED, concat(children));

/** concat joins encoded pieces, leaving out the absent ones. */
export function concat(parts: readonly Encoded[]): Buffer {
  const present = parts.filter((p): p is Buffer => p instanceof Buffer);
  return present.length === 1 ? present[0]! : Buffer.concat(present);
}

/** when encodes `v` with `enc` if it is defined. */
export const when = <T>(v: T | undefined, enc: (v: T) => Buffer | undefined): Buffer | undefined =>
  v === undefined ? undefined : enc(v);
