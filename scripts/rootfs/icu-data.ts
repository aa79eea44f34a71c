// ICU's common data (the .dat that node embeds as icudt*_dat): its table of contents, read to locate
// named items, and written anew with fewer or changed items. Layout: a header (its size in the first
// uint16, magic 0xda 0x27 after it), then a uint32 item count and per item two uint32 offsets, of its
// NUL-terminated name and of its bytes, both from the start of the table; items lie in name order, each
// up to the next, 16-byte aligned. Little-endian data only.

export interface IcuItem {
  /** e.g. "icudt78l/zoneinfo64.res" */
  readonly name: string;
  /** from the start of the data */
  readonly offset: number;
  readonly length: number;
}

/** what is wrong with ICU data, and where (the item, when one is at fault) */
export class IcuDataError extends Error {
  constructor(
    readonly where: string,
    message: string,
  ) {
    super(`${where}: ${message}`);
    this.name = 'IcuDataError';
  }
}

/** itemPath: an item's name inside the data, after its "icudt<version><endianness>/" prefix. */
export const itemPath = (name: string) => name.slice(name.indexOf('/') + 1);

/** ICU's common data in node's executable, e.g. icudt78_dat */
export const ICU_DATA_SYMBOL = /^icudt\d+_dat$/;

/** the byte ICU's packager pads with */
const ICU_PADDING = 0xaa;
/** ICU aligns every item (and so the first, after the table) to 16 bytes */
const ITEM_ALIGN = 16;

const align = (n: number) => Math.ceil(n / ITEM_ALIGN) * ITEM_ALIGN;

/** lastNonZero: the index of the last byte that is not zero, or -1. */
function lastNonZero(data: Buffer): number {
  let i = data.length - 1;
  while (i >= 0 && data[i] === 0) i--;
  return i;
}

/**
 * mappedDataHeader reads the header every ICU data file and item starts with (MappedData, then
 * UDataInfo): its size, and the four-character data format ("CmnD", "ResB", "cnvt" …).
 */
export function mappedDataHeader(data: Buffer, where: string): { size: number; format: string } {
  if (data.length < 32 || data[2] !== 0xda || data[3] !== 0x27)
    throw new IcuDataError(where, 'no MappedData header (magic 0xda27)');
  return { size: data.readUInt16LE(0), format: data.toString('latin1', 12, 16) };
}

/**
 * icuItems lists the items of ICU common data, and how many bytes header and table take before them.
 * The last item runs to the end of `data`; with `zeroFilled` (data packed into a larger space and
 * zero-padded, as a trim leaves it) to the 16-byte boundary after its last non-zero byte instead: an
 * estimate, good for reading the item ahead, not for copying it.
 */
export function icuItems(
  data: Buffer,
  opts: { zeroFilled?: boolean } = {},
): { tocBytes: number; items: IcuItem[] } {
  const toc = mappedDataHeader(data, 'ICU data').size;
  const count = data.readUInt32LE(toc);
  if (toc + 4 + count * 8 > data.length)
    throw new IcuDataError('ICU data', `${count} items do not fit in ${data.length} bytes`);
  const raw: { name: string; offset: number }[] = [];
  for (let i = 0; i < count; i++) {
    const nameAt = toc + data.readUInt32LE(toc + 4 + i * 8);
    const offset = toc + data.readUInt32LE(toc + 8 + i * 8);
    const end = data.indexOf(0, nameAt);
    if (end < 0 || offset > data.length)
      throw new IcuDataError(`ICU data item ${i}`, 'lies outside the data');
    raw.push({ name: data.toString('latin1', nameAt, end), offset });
  }
  raw.sort((a, b) => a.offset - b.offset);
  const end = opts.zeroFilled ? Math.max(raw.at(-1)?.offset ?? 0, align(lastNonZero(data) + 1)) : data.length;
  const items = raw.map((r, i) => ({ ...r, length: (raw[i + 1]?.offset ?? end) - r.offset }));
  return { tocBytes: items[0]?.offset ?? data.length, items };
}

/**
 * packIcuData writes ICU common data: the header of `original` (the data the items come from), a
 * table of the items, and their bytes, each aligned. ICU finds an item by binary search over the table,
 * so the names must come in ascending byte order, as icuItems lists an ICU-built package's items.
 */
export function packIcuData(
  original: Buffer,
  items: readonly { readonly name: string; readonly bytes: Buffer }[],
): Buffer {
  const header = mappedDataHeader(original, 'ICU data').size;
  const names = items.map((it) => Buffer.from(`${it.name}\0`, 'latin1'));
  for (let i = 1; i < names.length; i++)
    if (Buffer.compare(names[i - 1] as Buffer, names[i] as Buffer) >= 0)
      throw new IcuDataError(items[i]?.name ?? '', `not after ${items[i - 1]?.name} in name order`);
  const tableBytes = 4 + items.length * 8;
  const namesBytes = names.reduce((n, b) => n + b.length, 0);
  const first = align(header + tableBytes + namesBytes);
  const total = items.reduce((at, it) => at + align(it.bytes.length), first);
  // padding as ICU's own packager writes it, so an unchanged package comes back byte for byte
  const out = Buffer.alloc(total, ICU_PADDING);
  original.copy(out, 0, 0, header);
  out.writeUInt32LE(items.length, header);
  let nameAt = header + tableBytes;
  let itemAt = first;
  items.forEach((it, i) => {
    out.writeUInt32LE(nameAt - header, header + 4 + i * 8);
    out.writeUInt32LE(itemAt - header, header + 8 + i * 8);
    nameAt += (names[i] as Buffer).copy(out, nameAt);
    it.bytes.copy(out, itemAt);
    itemAt += align(it.bytes.length);
  });
  return out;
}
