// iso9660: the volume descriptor set from 32 KiB. LABEL is the primary descriptor's volume id, or
// the Joliet one where Joliet exists (merged with the primary's as blkid does, since Joliet keeps
// only 16 characters); UUID is blkid's spelling of the modification, else creation, date.
// The first 32 KiB are the system area, where hybrid images keep an MBR or GPT (even a FAT boot
// sector); the chain reports the first match only, and iso9660 comes last in it.
import { isPowerOf2, magic, type ProbeResult, type Prober, type Volume } from './prober.js';
import { label, rtrim } from './text.js';
import { isZero } from './uuid.js';

const SET_START = 0x8000;
const SECTOR = 2048;
const MAX_DESCRIPTORS = 16;
const STANDARD_ID = Buffer.from('CD001', 'latin1');
const TYPE = { primary: 1, supplementary: 2, terminator: 0xff } as const;
const JOLIET_ESCAPES = ['%/@', '%/C', '%/E'].map((s) => Buffer.from(s, 'latin1'));

// byte offsets in a primary or supplementary volume descriptor
const VD = {
  volumeId: 40,
  idLength: 32,
  spaceSize: 80,
  escapes: 88,
  logicalBlockSize: 128,
  created: 813,
  modified: 830,
} as const;

/** descriptors returns the first primary and the first Joliet descriptor of the set. */
function descriptors(vol: Volume): { pvd?: Buffer; joliet?: Buffer } {
  let pvd: Buffer | undefined;
  let joliet: Buffer | undefined;
  for (let i = 0; i < MAX_DESCRIPTORS && !(pvd && joliet); i++) {
    const d = vol.read(SET_START + i * SECTOR, SECTOR);
    // a descriptor without the standard identifier ends the set as surely as the terminator
    if (!d || d[0] === TYPE.terminator || !d.subarray(1, 6).equals(STANDARD_ID)) break;
    if (d[0] === TYPE.primary) pvd ??= d;
    if (d[0] === TYPE.supplementary && !joliet) {
      const esc = d.subarray(VD.escapes, VD.escapes + 3);
      if (JOLIET_ESCAPES.some((e) => e.equals(esc))) joliet = d;
    }
  }
  return { pvd, joliet };
}

// a descriptor date: 16 ASCII digits "YYYYMMDDHHMMSScc", then a signed offset from GMT in 15-minute units
const DATE_DIGITS = 16;
const DATE_SIZE = 17;

/** unset is ECMA-119's "not specified": every digit '0' and a zero offset. */
const unset = (date: Buffer) =>
  date.subarray(0, DATE_DIGITS).every((c) => c === 0x30) && date[DATE_DIGITS] === 0;

/** volumeUuid is blkid's: the modification date, else the creation date, spelled YYYY-MM-DD-HH-MM-SS-cc. */
function volumeUuid(pvd: Buffer): string | undefined {
  const modified = pvd.subarray(VD.modified, VD.modified + DATE_SIZE);
  const created = pvd.subarray(VD.created, VD.created + DATE_SIZE);
  const date = unset(modified) ? created : modified;
  const digits = date.subarray(0, DATE_DIGITS);
  // all-NUL digits are an empty UUID to blkid, which then does not fall back to the creation date
  if (unset(date) || isZero(digits)) return undefined;
  const s = digits.toString('latin1');
  return [0, 4, 6, 8, 10, 12, 14].map((at, i, all) => s.slice(at, all[i + 1])).join('-');
}

const toUpper = (c: number) => (c >= 0x61 && c <= 0x7a ? c - 0x20 : c);
const isUpper = (c: number) => c >= 0x41 && c <= 0x5a;

/**
 * mergeJoliet rebuilds the label from Joliet's UTF-16BE units (at most 16 characters) and the
 * primary's 32 ASCII bytes, where '_' stands for a character ASCII cannot hold: Joliet supplies those
 * and the case, the primary the length. Undefined when Joliet's is not a prefix of the primary's.
 */
export function mergeJoliet(utf16: Buffer, ascii: Buffer): number[] | undefined {
  const out: number[] = [];
  let u = 0;
  let a = 0;
  for (; u + 1 < utf16.length && a < ascii.length; a++) {
    let unit = utf16.readUInt16BE(u);
    if (unit >= 0xd800 && unit <= 0xdbff && u + 3 < utf16.length) {
      const low = utf16.readUInt16BE(u + 2);
      if (low >= 0xdc00 && low <= 0xdfff) {
        out.push(unit); // the high half rides along; '_' in ASCII must then take the low half
        u += 2;
        unit = low;
      }
    }
    const c = ascii[a]!;
    if (c === 0x5f) out.push(unit);
    else if (unit === 0x5f) out.push(c);
    else if (unit < 0x100 && toUpper(c) === toUpper(unit)) out.push(isUpper(c) ? unit : c);
    else return undefined;
    u += 2;
  }
  for (; a < ascii.length; a++) out.push(ascii[a]!);
  return out;
}

/** utf16Label decodes UTF-16 units up to the first NUL, trimmed as blkid trims labels. */
function utf16Label(units: readonly number[]): string | undefined {
  const end = units.indexOf(0);
  const s = rtrim(String.fromCharCode(...(end === -1 ? units : units.slice(0, end))));
  return s === '' ? undefined : s;
}

function volumeLabel(pvd: Buffer, joliet: Buffer | undefined): string | undefined {
  const ascii = pvd.subarray(VD.volumeId, VD.volumeId + VD.idLength);
  if (!joliet) return label(ascii, 'latin1');
  const utf16 = joliet.subarray(VD.volumeId, VD.volumeId + VD.idLength);
  const merged = mergeJoliet(utf16, ascii);
  if (merged) return utf16Label(merged);
  const units: number[] = [];
  for (let i = 0; i + 1 < utf16.length; i += 2) units.push(utf16.readUInt16BE(i));
  return utf16Label(units);
}

export const iso9660: Prober = {
  name: 'iso9660',
  magics: [magic(SET_START + 1, 'CD001')],
  probe(vol): ProbeResult | undefined {
    const { pvd, joliet } = descriptors(vol);
    if (!pvd) return undefined;
    // both-endian fields: the little-endian half comes first
    const blockSize = pvd.readUInt16LE(VD.logicalBlockSize);
    if (!isPowerOf2(blockSize) || blockSize < 512 || blockSize > SECTOR) return undefined;
    return {
      type: 'iso9660',
      uuid: volumeUuid(pvd),
      label: volumeLabel(pvd, joliet),
      blockSize,
      filesystemBlockSize: blockSize,
      probedSize: pvd.readUInt32LE(VD.spaceSize) * blockSize,
    };
  },
};
