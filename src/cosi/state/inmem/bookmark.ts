// Bookmarks: an 8-byte per-process boot cookie followed by the 8-byte big-endian ring position.
import { randomFillSync } from 'node:crypto';
import type { Bookmark } from '../events.js';

/**
 * BOOT_COOKIE makes bookmarks from an earlier process (or another state process) invalid here. Filled
 * through node:crypto: the global Web Crypto object loads Node's whole WebCrypto layer on first use.
 */
const BOOT_COOKIE: Uint8Array = randomFillSync(new Uint8Array(8));

const TWO_32 = 2 ** 32;

/** encodeBookmark stamps a position; -1 (before the first event) encodes as two's complement. */
export function encodeBookmark(pos: number): Bookmark {
  const b = new Uint8Array(16);
  b.set(BOOT_COOKIE);
  const hi = Math.floor(pos / TWO_32);
  const lo = pos - hi * TWO_32;
  writeU32(b, 8, hi >>> 0);
  writeU32(b, 12, lo >>> 0);
  return b;
}

/** decodeBookmark returns the position, or undefined for a malformed or foreign bookmark. */
export function decodeBookmark(b: Bookmark): number | undefined {
  if (b.length !== 16) return undefined;
  for (let i = 0; i < 8; i++) if (b[i] !== BOOT_COOKIE[i]) return undefined;
  const hi = readU32(b, 8) | 0; // signed high word
  return hi * TWO_32 + readU32(b, 12);
}

function writeU32(b: Uint8Array, at: number, v: number): void {
  b[at] = v >>> 24;
  b[at + 1] = (v >>> 16) & 0xff;
  b[at + 2] = (v >>> 8) & 0xff;
  b[at + 3] = v & 0xff;
}

const readU32 = (b: Uint8Array, at: number): number =>
  ((b[at]! << 24) | (b[at + 1]! << 16) | (b[at + 2]! << 8) | b[at + 3]!) >>> 0;
