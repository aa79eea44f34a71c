// A tree's res_index.res in ICU's data lists the locales the tree has: the keys of its InstalledLocales
// table (what Intl's supportedLocalesOf and availability checks see) and of AliasLocales. When a trim
// drops locales, the index must stop listing them, or Intl would claim a locale and then format in
// another. filterResIndex rewrites those two tables in place, keeping the entries whose key passes.
//
// The resource bundle ("ResB", format 2 or 3): after the data header, the root resource (a uint32),
// then uint32 indexes (indexes[0] & 0xff of them; indexes[1] is where the keys end and 16-bit units
// begin, in uint32 units), the keys (NUL-terminated, by byte offset from the data's start), 16-bit units,
// then 32-bit resources. A resource is a uint32: its type in the top 4 bits, an offset in the rest.
// Tables come in three forms: TABLE (uint16 count, uint16 key offsets, padding to 4 bytes, uint32
// values; offset in uint32 units), TABLE16 (uint16 count, keys, uint16 values; offset in 16-bit units)
// and TABLE32 (int32 count, int32 keys, uint32 values). Entries are in key order, which a subset keeps.
import { IcuDataError, mappedDataHeader } from '../rootfs/icu-data.js';

const TABLE = 2;
const TABLE32 = 4;
const TABLE16 = 5;
/** the tables of an index that name locales */
export const LOCALE_TABLES = ['InstalledLocales', 'AliasLocales'] as const;

interface Bundle {
  readonly data: Buffer;
  readonly where: string;
  /** byte offset where local keys end (keys past it live in a pool bundle) */
  readonly keysEnd: number;
  /** byte offset of the 16-bit units */
  readonly units16: number;
}

interface TableEntries {
  readonly keys: string[];
  /** each entry's key offset and value as stored, to write back */
  readonly raw: { key: number; value: number }[];
  readonly write: (kept: readonly { key: number; value: number }[]) => void;
}

function openBundle(res: Buffer, where: string): Bundle {
  const { size: header, format } = mappedDataHeader(res, where);
  if (res[8] !== 0) throw new IcuDataError(where, 'big-endian data is not supported');
  const version = res[16] ?? 0;
  if (format !== 'ResB' || version < 2 || version > 3)
    throw new IcuDataError(where, `not a resource bundle of format 2 or 3 (${format} ${version})`);
  const data = res.subarray(header);
  const indexes = data.readUInt32LE(4) & 0xff;
  if (indexes < 2 || 4 + indexes * 4 > data.length)
    throw new IcuDataError(where, `${indexes} indexes do not fit`);
  const keysEnd = data.readUInt32LE(8) * 4;
  if (keysEnd > data.length) throw new IcuDataError(where, 'keys run past the data');
  return { data, where, keysEnd, units16: keysEnd };
}

function keyAt(b: Bundle, offset: number): string {
  // past the local keys (or, in a TABLE32, negative): a key of the tree's pool bundle
  if (offset < 0 || offset >= b.keysEnd)
    throw new IcuDataError(
      b.where,
      `key at ${offset} lies in a pool bundle, which this rewrite does not read`,
    );
  const end = b.data.indexOf(0, offset);
  if (end < 0 || end >= b.keysEnd) throw new IcuDataError(b.where, `key at ${offset} is not terminated`);
  return b.data.toString('latin1', offset, end);
}

/** tableEntries reads the table `resource` points at, with a writer for a subset of its entries. */
function tableEntries(b: Bundle, resource: number, name: string): TableEntries {
  const type = resource >>> 28;
  const offset = resource & 0x0fffffff;
  const { data } = b;
  const where = `${b.where} ${name}`;
  const check = (end: number) => {
    if (end > data.length) throw new IcuDataError(where, 'table runs past the data');
  };
  if (type === TABLE || type === TABLE16) {
    const at = type === TABLE ? offset * 4 : b.units16 + offset * 2;
    if (type === TABLE && offset === 0) return { keys: [], raw: [], write: () => {} };
    check(at + 2);
    const count = data.readUInt16LE(at);
    // TABLE pads its uint16s (count and keys) to a whole number of uint32s before the values
    const valuesAt = type === TABLE ? at + 2 * (1 + count + (~count & 1)) : at + 2 + count * 2;
    const valueBytes = type === TABLE ? 4 : 2;
    check(valuesAt + count * valueBytes);
    const raw = Array.from({ length: count }, (_, i) => ({
      key: data.readUInt16LE(at + 2 + i * 2),
      value: valueBytes === 4 ? data.readUInt32LE(valuesAt + i * 4) : data.readUInt16LE(valuesAt + i * 2),
    }));
    const write = (kept: readonly { key: number; value: number }[]) => {
      const n = kept.length;
      const end = valuesAt + count * valueBytes;
      const newValuesAt = type === TABLE ? at + 2 * (1 + n + (~n & 1)) : at + 2 + n * 2;
      data.writeUInt16LE(n, at);
      data.fill(0, at + 2, newValuesAt);
      for (const [i, e] of kept.entries()) {
        data.writeUInt16LE(e.key, at + 2 + i * 2);
        if (valueBytes === 4) data.writeUInt32LE(e.value, newValuesAt + i * 4);
        else data.writeUInt16LE(e.value, newValuesAt + i * 2);
      }
      // what the table no longer covers is unreferenced; zero it so no stale entry survives in the bytes
      data.fill(0, newValuesAt + n * valueBytes, end);
    };
    return { keys: raw.map((e) => keyAt(b, e.key)), raw, write };
  }
  if (type === TABLE32) {
    const at = offset * 4;
    check(at + 4);
    const count = data.readInt32LE(at);
    check(at + 4 + count * 8);
    const raw = Array.from({ length: count }, (_, i) => ({
      key: data.readInt32LE(at + 4 + i * 4),
      value: data.readUInt32LE(at + 4 + count * 4 + i * 4),
    }));
    const write = (kept: readonly { key: number; value: number }[]) => {
      const n = kept.length;
      data.writeInt32LE(n, at);
      for (const [i, e] of kept.entries()) {
        data.writeInt32LE(e.key, at + 4 + i * 4);
        data.writeUInt32LE(e.value, at + 4 + n * 4 + i * 4);
      }
      data.fill(0, at + 4 + n * 8, at + 4 + count * 8);
    };
    return { keys: raw.map((e) => keyAt(b, e.key)), raw, write };
  }
  throw new IcuDataError(where, `resource type ${type} is not a table`);
}

export interface FilteredIndex {
  /** the rewritten bundle (a copy; the input is left alone) */
  readonly bytes: Buffer;
  /** every locale the index listed, installed or alias */
  readonly listed: readonly string[];
  /** the locales it still lists */
  readonly kept: readonly string[];
}

/** filterResIndex keeps the InstalledLocales and AliasLocales entries of a res_index.res that `keep` passes. */
export function filterResIndex(res: Buffer, keep: (locale: string) => boolean, where: string): FilteredIndex {
  const copy = Buffer.from(res);
  const b = openBundle(copy, where);
  const root = tableEntries(b, b.data.readUInt32LE(0), 'root table');
  const listed: string[] = [];
  const kept: string[] = [];
  let found = false;
  for (const name of LOCALE_TABLES) {
    const i = root.keys.indexOf(name);
    if (i < 0) continue;
    found = true;
    const table = tableEntries(b, (root.raw[i] as { value: number }).value, name);
    const keepIt = table.keys.map(keep);
    listed.push(...table.keys);
    kept.push(...table.keys.filter((_, j) => keepIt[j]));
    table.write(table.raw.filter((_, j) => keepIt[j]));
  }
  if (!found) throw new IcuDataError(where, `has neither ${LOCALE_TABLES.join(' nor ')}`);
  return { bytes: copy, listed, kept };
}
