// CRC-32 (IEEE 802.3, as zlib): the checksum of every frame header and payload.
import * as zlib from 'node:zlib';

const TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

/** crc32Table is the portable implementation, kept for Node versions without zlib.crc32. */
export function crc32Table(data: Uint8Array): number {
  let c = 0xffffffff;
  for (let i = 0; i < data.length; i++) c = TABLE[(c ^ data[i]!) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

const native = (zlib as { crc32?: (data: Uint8Array) => number }).crc32;

/** crc32 uses zlib's native routine where the runtime has one (Node ≥ 20.15). */
export const crc32: (data: Uint8Array) => number = native ? (d) => native(d) >>> 0 : crc32Table;
