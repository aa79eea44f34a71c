// The Talos ADV: one 256 KiB block of big-endian TLVs between two magics, sealed with a sha256.
//
//   0x00000   u32 magic1 0x5A4B3C2D
//   0x00004   TLVs {u32 tag, u32 size, value[size]}, packed with no alignment; tag 0 (or < 8 bytes left) ends
//   −0x24     sha256 of the whole block, computed with these 32 bytes zeroed
//   −0x04     u32 magic2 0xA5B4C3D2
//
// The data area is what lies between magic1 and the checksum: Length − 40 bytes. META holds two copies.
import { createHash } from 'node:crypto';
import { hex32, MetaError } from './errors.js';
import { formatTag, isU8, TAG_END } from './tags.js';

export const ADV_LENGTH = 256 * 1024;
export const ADV_MAGIC1 = 0x5a4b3c2d;
export const ADV_MAGIC2 = 0xa5b4c3d2;
/** room for TLVs: the block less magic1 (4), the checksum (32) and magic2 (4) */
export const ADV_DATA_LENGTH = ADV_LENGTH - 40;
/** a TLV's header: u32 tag, u32 size */
export const ADV_TLV_HEADER = 8;

const DATA_START = 4;
const CHECKSUM_AT = ADV_LENGTH - 36;
const MAGIC2_AT = ADV_LENGTH - 4;

export type MetaTags = ReadonlyMap<number, Uint8Array>;

/** advDataSize is how much of the data area `tags` take. */
export function advDataSize(tags: MetaTags): number {
  let n = 0;
  for (const v of tags.values()) n += ADV_TLV_HEADER + v.length;
  return n;
}

/** encodeAdv lays out one block, tags in ascending order so equal contents give equal bytes. */
export function encodeAdv(tags: MetaTags): Buffer {
  const b = Buffer.alloc(ADV_LENGTH);
  b.writeUInt32BE(ADV_MAGIC1, 0);
  let at = DATA_START;
  for (const tag of [...tags.keys()].sort((x, y) => x - y)) {
    if (!isU8(tag) || tag === TAG_END) throw new MetaError('bad-tag', `adv: tag ${tag}: not a tag of 1–255`);
    const value = tags.get(tag)!;
    const left = CHECKSUM_AT - at;
    if (ADV_TLV_HEADER + value.length > left) {
      throw new MetaError(
        'too-large',
        `adv: tag ${formatTag(tag)}: ${value.length} bytes (+${ADV_TLV_HEADER} header) do not fit, ` +
          `${left} of ${ADV_DATA_LENGTH} bytes left`,
      );
    }
    b.writeUInt32BE(tag, at);
    b.writeUInt32BE(value.length, at + 4);
    b.set(value, at + ADV_TLV_HEADER);
    at += ADV_TLV_HEADER + value.length;
  }
  // the rest is already zero: an end tag, then padding
  b.writeUInt32BE(ADV_MAGIC2, MAGIC2_AT);
  advChecksum(b).copy(b, CHECKSUM_AT);
  return b;
}

/** decodeAdv checks one block and returns its tags; `where` names the block in errors. */
export function decodeAdv(block: Uint8Array, where = 'adv'): Map<number, Buffer> {
  if (block.length !== ADV_LENGTH) {
    throw new MetaError('bad-length', `${where}: ${block.length} bytes, want ${ADV_LENGTH}`);
  }
  const b = Buffer.from(block.buffer, block.byteOffset, block.length);
  const m1 = b.readUInt32BE(0);
  if (m1 !== ADV_MAGIC1)
    throw new MetaError('bad-magic', `${where}: magic1 is ${hex32(m1)}, want ${hex32(ADV_MAGIC1)}`);
  const m2 = b.readUInt32BE(MAGIC2_AT);
  if (m2 !== ADV_MAGIC2) {
    throw new MetaError(
      'bad-magic',
      `${where}: magic2 at 0x${MAGIC2_AT.toString(16)} is ${hex32(m2)}, want ${hex32(ADV_MAGIC2)}`,
    );
  }
  if (!advChecksum(b).equals(b.subarray(CHECKSUM_AT, MAGIC2_AT))) {
    throw new MetaError(
      'bad-checksum',
      `${where}: sha256 at 0x${CHECKSUM_AT.toString(16)} does not match the block`,
    );
  }

  const tags = new Map<number, Buffer>();
  for (let at = DATA_START; CHECKSUM_AT - at >= ADV_TLV_HEADER; ) {
    const tag = b.readUInt32BE(at);
    if (tag === TAG_END) break;
    const size = b.readUInt32BE(at + 4);
    const left = CHECKSUM_AT - at - ADV_TLV_HEADER;
    const here = `${where}: tag ${formatTag(tag)} at 0x${at.toString(16)}`;
    if (size > left)
      throw new MetaError('tlv-overrun', `${here}: ${size} bytes claimed, ${left} left in the data area`);
    if (!isU8(tag)) throw new MetaError('wide-tag', `${here}: does not fit a u8`);
    if (tags.has(tag)) throw new MetaError('duplicate-tag', `${here}: the tag appears twice`);
    // a copy, so a value does not keep the whole 256 KiB block alive
    tags.set(tag, Buffer.from(b.subarray(at + ADV_TLV_HEADER, at + ADV_TLV_HEADER + size)));
    at += ADV_TLV_HEADER + size;
  }
  return tags;
}

/** advChecksum is the sha256 of the block with the checksum field read as zeros; the block is not changed. */
export function advChecksum(block: Buffer): Buffer {
  return createHash('sha256')
    .update(block.subarray(0, CHECKSUM_AT))
    .update(Buffer.alloc(32))
    .update(block.subarray(MAGIC2_AT))
    .digest();
}
