// CRC-32C (Castagnoli), the checksum xfs v5 and ext4 metadata_csum put in their superblocks.
// Node 20 has no native routine for this polynomial, so a byte-wise table is enough for a few KiB.

const TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0x82f63b78 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

/** crc32c is the standard CRC-32C: register seeded with all ones, result inverted (xfs's sb_crc). */
export function crc32c(data: Uint8Array): number {
  let c = 0xffffffff;
  for (let i = 0; i < data.length; i++) c = TABLE[(c ^ data[i]!) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/** crc32cRaw is the register without the final inversion, as the kernel's crc32c(~0, …) that ext4 stores. */
export const crc32cRaw = (data: Uint8Array): number => ~crc32c(data) >>> 0;
