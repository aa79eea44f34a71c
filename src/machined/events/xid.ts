// xid: 12-byte, time-ordered ids rendered as 20 base32hex characters, the format machined's event ids use.
import { randomBytes } from 'node:crypto';

const ALPHABET = '0123456789abcdefghijklmnopqrstuv';

/** XidSource makes ids that sort by creation time (seconds) and then by a per-process counter. */
export interface XidSource {
  next(nowMs?: number): string;
}

/** newXidSource: 4 bytes of seconds, 3 of machine id, 2 of pid, 3 of a counter seeded at random. */
export function newXidSource(machine: Uint8Array = randomBytes(3), pid = process.pid): XidSource {
  let counter = randomBytes(3).readUIntBE(0, 3);
  return {
    next(nowMs = Date.now()) {
      const b = Buffer.alloc(12);
      b.writeUInt32BE(Math.floor(nowMs / 1000) >>> 0, 0);
      b.set(machine.subarray(0, 3), 4);
      b.writeUInt16BE(pid & 0xffff, 7);
      counter = (counter + 1) & 0xffffff;
      b.writeUIntBE(counter, 9, 3);
      return encodeXid(b);
    },
  };
}

/** encodeXid packs 96 bits, most significant first, into 5-bit digits (the last one zero-padded). */
export function encodeXid(b: Uint8Array): string {
  let out = '';
  let acc = 0;
  let bits = 0;
  for (const byte of b) {
    acc = (acc << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      bits -= 5;
      out += ALPHABET[(acc >>> bits) & 31];
    }
    acc &= (1 << bits) - 1;
  }
  if (bits > 0) out += ALPHABET[(acc << (5 - bits)) & 31];
  return out;
}
