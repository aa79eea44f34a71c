// Trims the ICU data node carries (icudt*_dat, 33 MB of the executable's 88, about a quarter of the
// compressed root filesystem) to what a Keel node can use: machined's logs, API and errors are English,
// and nothing on a node formats for another locale. What stays (the same rule Node's own small-icu
// builds follow, less strictly):
// - every tree's locale data for root and English (en, en_US, en_US_POSIX: POSIX is ICU's default
//   locale with no LANG), and the trees' shared pools; the indexes list only those, so Intl reports
//   other locales as unsupported and falls back to English instead of claiming them;
// - everything that is not per-locale: time zones, collation's root table (localeCompare), case
//   mapping, normalization, IDNA, break rules (Intl.Segmenter), plural rules, supplemental data;
// - the single-byte converters (TextDecoder's windows-125x, iso-8859-x, koi8 …, a few KB each).
// What goes: the multi-byte converters (CJK encodings, 4.7 MB), the dictionaries for word breaking in
// CJK and South-East Asian scripts (3 MB; Intl.Segmenter breaks such text by its rules alone), the
// transliterator rules and character names (nothing in V8 or Node reads them).
// The trimmed data is written over the original in the executable, the rest zeroed, so every address
// outside it stays where it was.
import { open } from 'node:fs/promises';
import {
  IcuDataError,
  type IcuItem,
  icuItems,
  itemPath,
  mappedDataHeader,
  packIcuData,
} from '../rootfs/icu-data.js';
import { readIcuData } from '../rootfs/icu-symbol.js';
import { filterResIndex } from './icu-res-index.js';

/** the locales every tree keeps; ICU's root bundle is never listed in an index and always stays */
export const KEPT_LOCALES: ReadonlySet<string> = new Set(['en', 'en_US', 'en_US_POSIX']);
/** items that go whatever their tree, by name inside the data (after "icudt<version><endianness>/") */
const DROPPED = [
  /^translit\//, // transliterators: ICU's Transliterator API, which V8 does not expose
  /^unames\.icu$/, // Unicode character names (u_charName): nothing in V8 or Node asks for them
  /^brkitr\/[^/]+\.dict$/, // word-break dictionaries for CJK, Thai, Lao, Khmer, Burmese
];
const INDEX = 'res_index.res';

/** where a converter's static data says how many bytes a character may take (UConverterStaticData) */
const CNV_MAX_BYTES_PER_CHAR = 4 + 60 + 4 + 3;

/** maxBytesPerChar of a converter (.cnv) item. */
export function converterMaxBytes(bytes: Buffer, where: string): number {
  const { size, format } = mappedDataHeader(bytes, where);
  if (format !== 'cnvt') throw new IcuDataError(where, 'not a converter (cnvt) item');
  const at = size + CNV_MAX_BYTES_PER_CHAR;
  if (at >= bytes.length) throw new IcuDataError(where, 'converter data is truncated');
  return bytes[at] as number;
}

export interface IcuTrimReport {
  readonly before: number;
  readonly after: number;
  readonly items: { readonly before: number; readonly after: number };
  /** per tree ("" is the main one), the locales its index listed and still lists */
  readonly locales: ReadonlyMap<string, { listed: number; kept: readonly string[] }>;
}

/** an item's tree ("" for the main one, else e.g. "coll/") and its file name in it */
function treeAndFile(name: string): { tree: string; file: string } {
  const path = itemPath(name);
  const cut = path.lastIndexOf('/') + 1;
  return { tree: path.slice(0, cut), file: path.slice(cut) };
}

/**
 * trimIcuData returns ICU common data with only what a Keel node keeps (see above), packed: shorter than
 * `data`, whose header it keeps. Fails, naming the item, on data it cannot read rather than guess.
 */
export function trimIcuData(data: Buffer): { data: Buffer; report: IcuTrimReport } {
  const { items } = icuItems(data);
  // icuItems lists by offset; packIcuData checks that this is the name order ICU searches in
  const bytesOf = (it: IcuItem) => data.subarray(it.offset, it.offset + it.length);
  const indexes = new Map<string, { listed: Set<string>; bytes: Buffer; kept: readonly string[] }>();
  for (const it of items) {
    const { tree, file } = treeAndFile(it.name);
    if (file !== INDEX) continue;
    const f = filterResIndex(bytesOf(it), (l) => KEPT_LOCALES.has(l), it.name);
    indexes.set(tree, { listed: new Set(f.listed), bytes: f.bytes, kept: f.kept });
  }
  const kept: { name: string; bytes: Buffer }[] = [];
  for (const it of items) {
    const { tree, file } = treeAndFile(it.name);
    const index = indexes.get(tree);
    const locale = file.endsWith('.res') ? file.slice(0, -'.res'.length) : undefined;
    if (DROPPED.some((re) => re.test(itemPath(it.name)))) continue;
    if (file.endsWith('.cnv') && converterMaxBytes(bytesOf(it), it.name) > 1) continue;
    if (locale !== undefined && index?.listed.has(locale) && !KEPT_LOCALES.has(locale)) continue;
    kept.push({ name: it.name, bytes: file === INDEX && index ? index.bytes : bytesOf(it) });
  }
  const out = packIcuData(data, kept);
  return {
    data: out,
    report: {
      before: data.length,
      after: out.length,
      items: { before: items.length, after: kept.length },
      locales: new Map([...indexes].map(([t, i]) => [t, { listed: i.listed.size, kept: i.kept }])),
    },
  };
}

/**
 * trimNodeIcu trims the ICU data of a node executable in place: the packed data over the original, the
 * rest of it zeroed (it compresses to nothing). An executable without ICU data is left as it is.
 */
export async function trimNodeIcu(exe: string): Promise<IcuTrimReport | undefined> {
  const icu = await readIcuData(exe);
  if (icu === undefined) return undefined;
  const { data, report } = trimIcuData(icu.data);
  if (data.length > icu.symbol.size)
    throw new IcuDataError(
      exe,
      `the trimmed ICU data (${data.length} bytes) does not fit in ${icu.symbol.name}`,
    );
  const patched = Buffer.alloc(icu.symbol.size);
  data.copy(patched);
  const fh = await open(exe, 'r+');
  try {
    await fh.write(patched, 0, patched.length, icu.symbol.offset);
  } finally {
    await fh.close();
  }
  return report;
}
