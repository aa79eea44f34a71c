// 64-bit integers on the wire travel as two uint32 halves; in JS they are numbers while safe, bigints beyond.

const TWO32 = 4294967296;
const INT64_MIN = -(1n << 63n);
const INT64_MAX = (1n << 63n) - 1n;
const UINT64_MAX = (1n << 64n) - 1n;

/** Int64Like is what 64-bit fields accept: a safe-or-not integer number, or a bigint. */
export type Int64Like = number | bigint;

/** Split is a 64-bit value as its low and high uint32 words (two's complement). */
export interface Split {
  lo: number;
  hi: number;
}

/** splitInt64 gives the two's-complement words of an integer; the caller has range-checked it. */
export function splitInt64(v: Int64Like): Split {
  if (typeof v === 'number' && Number.isSafeInteger(v)) {
    // `>>> 0` reduces modulo 2^32, which is exactly the low word even for negatives
    return { lo: v >>> 0, hi: Math.floor(v / TWO32) >>> 0 };
  }
  const u = BigInt.asUintN(64, BigInt(v));
  return { lo: Number(u & 0xffffffffn), hi: Number(u >> 32n) };
}

/** joinUint64 reads the words as unsigned: a number while it is safe, a bigint beyond. */
export function joinUint64(lo: number, hi: number): number | bigint {
  if (hi < 0x200000) return hi * TWO32 + lo;
  return (BigInt(hi) << 32n) | BigInt(lo);
}

/** joinInt64 reads the words as two's-complement signed: a number while it is safe, a bigint beyond. */
export function joinInt64(lo: number, hi: number): number | bigint {
  if (hi < 0x80000000) return joinUint64(lo, hi);
  // negative: safe while the value stays above -2^53
  if (hi > 0xffe00000 || (hi === 0xffe00000 && lo > 0)) return (hi - TWO32) * TWO32 + lo;
  return BigInt.asIntN(64, (BigInt(hi) << 32n) | BigInt(lo));
}

/** isInt64 says whether v is an integer within the signed 64-bit range. */
export function isInt64(v: unknown): v is Int64Like {
  if (typeof v === 'number') return Number.isInteger(v) && v >= -(2 ** 63) && v < 2 ** 63;
  return typeof v === 'bigint' && v >= INT64_MIN && v <= INT64_MAX;
}

/** isUint64 says whether v is an integer within the unsigned 64-bit range. */
export function isUint64(v: unknown): v is Int64Like {
  if (typeof v === 'number') return Number.isInteger(v) && v >= 0 && v < 2 ** 64;
  return typeof v === 'bigint' && v >= 0n && v <= UINT64_MAX;
}

/** zigzag64 maps a signed 64-bit value to the unsigned one sint64 fields carry. */
export function zigzag64(v: Int64Like): Split {
  if (typeof v === 'number' && Number.isSafeInteger(v) && Math.abs(v) < 2 ** 52) {
    // small enough that 2|v|+1 is still exact
    const z = v >= 0 ? v * 2 : -v * 2 - 1;
    return { lo: z >>> 0, hi: Math.floor(z / TWO32) >>> 0 };
  }
  const b = BigInt(v);
  return splitInt64(BigInt.asUintN(64, (b << 1n) ^ (b >> 63n)));
}

/** unzigzag64 turns sint64 wire words back into the signed value's words. */
export function unzigzag64(lo: number, hi: number): Split {
  const mask = -(lo & 1);
  return { lo: (((lo >>> 1) | (hi << 31)) ^ mask) >>> 0, hi: ((hi >>> 1) ^ mask) >>> 0 };
}
