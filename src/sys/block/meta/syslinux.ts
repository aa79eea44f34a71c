// The legacy syslinux ADV: the last two 512-byte sectors of META, the second a copy of the first.
//
//   0x000   u32 magic1 0x5a2d2fa5                       (little-endian, as syslinux is x86 code)
//   0x004   u32 checksum: the u32 words 0x004..0x1fc sum to 0xa3041767
//   0x008   TLVs {u8 tag, u8 length, value[length]}; tag 0 ends
//   0x1fc   u32 magic3 0xdd28bf64
//
// Talos kept its tags here before it had its own ADV; it still reads them as a fallback and writes the area
// back on every flush.
import type { MetaTags } from './adv.js';
import { hex32, MetaError } from './errors.js';
import { formatTag, isU8, TAG_END } from './tags.js';

export const SYSLINUX_SECTOR = 512;
/** both sectors, the size of the area at the end of the partition */
export const SYSLINUX_AREA = 2 * SYSLINUX_SECTOR;
export const SYSLINUX_MAGIC1 = 0x5a2d2fa5;
export const SYSLINUX_CHECKSUM = 0xa3041767;
export const SYSLINUX_MAGIC3 = 0xdd28bf64;

const DATA_START = 8;
const TAIL_AT = SYSLINUX_SECTOR - 4;
// The writer keeps two bytes before the tail free for an end marker, as Talos's does, so a reader that stops
// looking for headers there (Talos's) sees every tag written here.
const WRITE_LIMIT = TAIL_AT - 2;

/** encodeSyslinux lays out both sectors of the area, tags in ascending order. */
export function encodeSyslinux(tags: MetaTags): Buffer {
  const area = Buffer.alloc(SYSLINUX_AREA);
  let at = DATA_START;
  for (const tag of [...tags.keys()].sort((x, y) => x - y)) {
    if (!isU8(tag) || tag === TAG_END)
      throw new MetaError('bad-tag', `syslinux adv: tag ${tag}: not a tag of 1–255`);
    const value = tags.get(tag)!;
    if (value.length > 255) {
      throw new MetaError(
        'too-large',
        `syslinux adv: tag ${formatTag(tag)}: ${value.length} bytes, at most 255`,
      );
    }
    if (at + 2 + value.length > WRITE_LIMIT) {
      throw new MetaError(
        'too-large',
        `syslinux adv: tag ${formatTag(tag)}: ${value.length} bytes (+2 header) do not fit, ` +
          `${WRITE_LIMIT - at} of ${WRITE_LIMIT - DATA_START} bytes left`,
      );
    }
    area[at] = tag;
    area[at + 1] = value.length;
    area.set(value, at + 2);
    at += 2 + value.length;
  }
  area.writeUInt32LE(SYSLINUX_MAGIC1, 0);
  area.writeUInt32LE(SYSLINUX_MAGIC3, TAIL_AT);
  area.writeUInt32LE((SYSLINUX_CHECKSUM - wordSum(area, DATA_START)) >>> 0, 4);
  area.copy(area, SYSLINUX_SECTOR, 0, SYSLINUX_SECTOR);
  return area;
}

/** decodeSyslinux reads the first valid sector of the area, as syslinux does; `where` names it in errors. */
export function decodeSyslinux(area: Uint8Array, where = 'syslinux adv'): Map<number, Buffer> {
  if (area.length !== SYSLINUX_AREA) {
    throw new MetaError('bad-length', `${where}: ${area.length} bytes, want ${SYSLINUX_AREA}`);
  }
  const b = Buffer.from(area.buffer, area.byteOffset, area.length);
  try {
    return decodeSector(b.subarray(0, SYSLINUX_SECTOR), `${where} sector 0`);
  } catch (first) {
    try {
      return decodeSector(b.subarray(SYSLINUX_SECTOR), `${where} sector 1`);
    } catch (second) {
      const e = first as MetaError;
      throw new MetaError(e.code, `${e.message}; ${(second as Error).message}`, { cause: first });
    }
  }
}

function decodeSector(s: Buffer, where: string): Map<number, Buffer> {
  const head = s.readUInt32LE(0);
  const tail = s.readUInt32LE(TAIL_AT);
  if (head !== SYSLINUX_MAGIC1 || tail !== SYSLINUX_MAGIC3) {
    throw new MetaError(
      'bad-magic',
      `${where}: head ${hex32(head)}, tail ${hex32(tail)}, want ${hex32(SYSLINUX_MAGIC1)}, ${hex32(SYSLINUX_MAGIC3)}`,
    );
  }
  if (wordSum(s, 4) !== SYSLINUX_CHECKSUM)
    throw new MetaError('bad-checksum', `${where}: the checksum does not add up`);

  const tags = new Map<number, Buffer>();
  for (let at = DATA_START; TAIL_AT - at >= 2; ) {
    const tag = s[at]!;
    if (tag === TAG_END) break;
    const length = s[at + 1]!;
    const left = TAIL_AT - at - 2;
    const here = `${where}: tag ${formatTag(tag)} at 0x${at.toString(16)}`;
    if (length > left) throw new MetaError('tlv-overrun', `${here}: ${length} bytes claimed, ${left} left`);
    if (tags.has(tag)) throw new MetaError('duplicate-tag', `${here}: the tag appears twice`);
    tags.set(tag, Buffer.from(s.subarray(at + 2, at + 2 + length)));
    at += 2 + length;
  }
  return tags;
}

/** wordSum adds the little-endian u32 words of one sector from `from` up to its tail, modulo 2^32. */
function wordSum(s: Buffer, from: number): number {
  let sum = 0;
  for (let at = from; at < TAIL_AT; at += 4) sum = (sum + s.readUInt32LE(at)) >>> 0;
  return sum;
}
