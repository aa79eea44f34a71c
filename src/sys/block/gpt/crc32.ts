// CRC-32 as GPT uses it (IEEE 802.3, reflected polynomial 0xEDB88320, initial and final XOR 0xFFFFFFFF),
// the same checksum as zlib's. Node has zlib.crc32 only from 20.15, so it is used when present and a
// table-driven one stands in otherwise.
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

/** crc32Portable is the table-driven checksum, one byte per step; kept exported so tests can hold it to zlib's. */
export function crc32Portable(data: Uint8Array): number {
  let c = 0xffffffff;
  for (let i = 0; i < data.length; i++) c = TABLE[(c ^ data[i]!) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

const native = (zlib as { crc32?: (data: Uint8Array, value?: number) => number }).crc32;

/** crc32 of `data`, an unsigned 32-bit number. */
export const crc32: (data: Uint8Array) => number = native ? (data) => native(data) >>> 0 : crc32Portable;
