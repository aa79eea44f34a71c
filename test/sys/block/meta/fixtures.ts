// Test fixtures for META: a seeded generator, and blocks sealed by hand from the documented layouts.
import { createHash } from 'node:crypto';
import { mulberry32 } from '../../../seeded-random.js';

/** seeded returns a small deterministic generator (mulberry32), so a failing case can be replayed. */
export function seeded(seed: number): {
  next(): number;
  int(below: number): number;
  bytes(n: number): Buffer;
} {
  const next = mulberry32(seed);
  const int = (below: number): number => Math.floor(next() * below);
  const bytes = (n: number): Buffer => {
    const b = Buffer.alloc(n);
    for (let i = 0; i < n; i++) b[i] = int(256);
    return b;
  };
  return { next, int, bytes };
}

/** tagMap makes a tag map from strings, the way tests read best. */
export const tagMap = (entries: Record<number, string>): Map<number, Buffer> =>
  new Map(Object.entries(entries).map(([k, v]) => [Number(k), Buffer.from(v)]));

/** talosBlock builds a Talos ADV block from go-adv's layout: BE magics at 0 and −4, sha256 at −36. */
export function talosBlock(
  tlvs: readonly (readonly [tag: number, value: Uint8Array])[],
  length = 256 * 1024,
): Buffer {
  const b = Buffer.alloc(length);
  const v = new DataView(b.buffer, b.byteOffset, b.length);
  v.setUint32(0, 0x5a4b3c2d, false);
  let at = 4;
  for (const [tag, value] of tlvs) {
    v.setUint32(at, tag, false);
    v.setUint32(at + 4, value.length, false);
    b.set(value, at + 8);
    at += 8 + value.length;
  }
  v.setUint32(length - 4, 0xa5b4c3d2, false);
  return resealTalos(b);
}

/** resealTalos recomputes the sha256 over the block with its checksum field zeroed, in place. */
export function resealTalos(b: Buffer): Buffer {
  b.fill(0, b.length - 36, b.length - 4);
  createHash('sha256')
    .update(b)
    .digest()
    .copy(b, b.length - 36);
  return b;
}

/** resealSyslinux fixes the checksum of one 512-byte syslinux sector so its words 1..126 sum to 0xa3041767. */
export function resealSyslinux(sector: Buffer): Buffer {
  let sum = 0;
  for (let at = 8; at < 508; at += 4) sum = (sum + sector.readUInt32LE(at)) >>> 0;
  sector.writeUInt32LE((0xa3041767 - sum) >>> 0, 4);
  return sector;
}
