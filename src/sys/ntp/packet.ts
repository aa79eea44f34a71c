// The NTP packet header (RFC 5905 §7.3) without extensions: 48 bytes, big-endian. Timestamps stay the raw
// 64-bit 32.32 fixed-point values on the wire (so an origin check compares bits); conversion to and from
// Unix nanoseconds picks the 136-year era nearest a pivot, which keeps 2036's rollover harmless.

export const PACKET_SIZE = 48;

/** Leap is the leap indicator: 3 is "clock unsynchronised". */
export type Leap = 0 | 1 | 2 | 3;
export const LEAP_NONE = 0;
export const LEAP_ADD_SECOND = 1;
export const LEAP_DEL_SECOND = 2;
export const LEAP_NOT_IN_SYNC = 3;

export const MODE_CLIENT = 3;
export const MODE_SERVER = 4;
export const MODE_BROADCAST = 5;

/** NtpPacket is one header; rootDelay and rootDispersion are seconds (16.16 fixed point on the wire). */
export interface NtpPacket {
  leap: Leap;
  version: number;
  mode: number;
  stratum: number;
  /** log2 seconds */
  poll: number;
  /** log2 seconds */
  precision: number;
  rootDelay: number;
  rootDispersion: number;
  /** 32 bits: an IPv4 address, a hash of an IPv6 one, a refclock name, or a kiss code when stratum is 0 */
  referenceId: number;
  referenceTime: bigint;
  originTime: bigint;
  receiveTime: bigint;
  transmitTime: bigint;
}

/** encodePacket writes a header; out-of-range fields throw rather than wrap silently. */
export function encodePacket(p: NtpPacket): Buffer {
  const b = Buffer.alloc(PACKET_SIZE);
  if (p.version < 0 || p.version > 7 || p.mode < 0 || p.mode > 7)
    throw new RangeError('ntp: bad version or mode');
  b[0] = (p.leap << 6) | (p.version << 3) | p.mode;
  b.writeUInt8(p.stratum, 1);
  b.writeInt8(p.poll, 2);
  b.writeInt8(p.precision, 3);
  b.writeUInt32BE(toShort(p.rootDelay), 4);
  b.writeUInt32BE(toShort(p.rootDispersion), 8);
  b.writeUInt32BE(p.referenceId >>> 0, 12);
  b.writeBigUInt64BE(p.referenceTime, 16);
  b.writeBigUInt64BE(p.originTime, 24);
  b.writeBigUInt64BE(p.receiveTime, 32);
  b.writeBigUInt64BE(p.transmitTime, 40);
  return b;
}

/** decodePacket reads a header; anything shorter than 48 bytes is not NTP. Extensions are ignored. */
export function decodePacket(b: Uint8Array): NtpPacket {
  if (b.length < PACKET_SIZE) throw new RangeError(`ntp: short packet (${b.length} bytes)`);
  const v = Buffer.from(b.buffer, b.byteOffset, b.length);
  return {
    leap: (v[0]! >> 6) as Leap,
    version: (v[0]! >> 3) & 7,
    mode: v[0]! & 7,
    stratum: v[1]!,
    poll: v.readInt8(2),
    precision: v.readInt8(3),
    rootDelay: v.readUInt32BE(4) / 65536,
    rootDispersion: v.readUInt32BE(8) / 65536,
    referenceId: v.readUInt32BE(12),
    referenceTime: v.readBigUInt64BE(16),
    originTime: v.readBigUInt64BE(24),
    receiveTime: v.readBigUInt64BE(32),
    transmitTime: v.readBigUInt64BE(40),
  };
}

// 16.16 unsigned: saturate instead of wrapping, a huge dispersion must stay huge
const toShort = (s: number): number => Math.min(0xffffffff, Math.max(0, Math.round(s * 65536)));

/** kissCode reads a stratum-0 reference id as its four ASCII letters ('RATE', 'DENY'), NULs dropped. */
export function kissCode(referenceId: number): string {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(referenceId >>> 0);
  return b.toString('latin1').replace(/\0+$/, '');
}

/** referenceIdOf encodes four ASCII letters as a reference id (kiss codes, refclock names). */
export const referenceIdOf = (code: string): number =>
  Buffer.from(code.padEnd(4, '\0').slice(0, 4), 'latin1').readUInt32BE(0);

const NS = 1_000_000_000n;
const ERA = 1n << 32n;
/** seconds from 1900-01-01 (NTP's prime epoch) to 1970-01-01 */
export const NTP_UNIX_DELTA = 2_208_988_800n;

/** unixNsToNtp encodes Unix nanoseconds as a 32.32 timestamp; the era is not on the wire. */
export function unixNsToNtp(ns: bigint): bigint {
  let sec = ns / NS;
  let rem = ns % NS;
  if (rem < 0n) {
    sec -= 1n;
    rem += NS;
  }
  // round to the nearest 2^-32 s; rem < 1e9 keeps it below 2^32
  const frac = (rem * ERA + NS / 2n) / NS;
  const ntpSec = (((sec + NTP_UNIX_DELTA) % ERA) + ERA) % ERA;
  return (ntpSec << 32n) | frac;
}

/** ntpToUnixNs decodes a 32.32 timestamp in the era that puts it nearest `pivotNs` (Unix ns, e.g. now). */
export function ntpToUnixNs(ts: bigint, pivotNs: bigint): bigint {
  const sec = ts >> 32n;
  const frac = ts & (ERA - 1n);
  const pivotSec = floorDiv(pivotNs, NS) + NTP_UNIX_DELTA;
  // the era whose copy of `sec` is within half an era of the pivot
  const era = floorDiv(pivotSec - sec + ERA / 2n, ERA);
  const ntpSec = era * ERA + sec;
  return (ntpSec - NTP_UNIX_DELTA) * NS + (frac * NS + ERA / 2n) / ERA;
}

const floorDiv = (a: bigint, b: bigint): bigint => {
  const q = a / b;
  return a % b !== 0n && a < 0n !== b < 0n ? q - 1n : q;
};
