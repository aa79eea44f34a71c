// ICU's common data (the .dat that node embeds as icudt*_dat): its table of contents, read to locate
// named items. Layout: a header (its size in the first uint16, magic 0xda 0x27 after it), then a uint32
// item count and per item two uint32 offsets, of its NUL-terminated name and of its bytes, both from the
// start of the table; items lie in name order, each up to the next. Little-endian data only.

export interface IcuItem {
  /** e.g. "icudt78l/zoneinfo64.res" */
  readonly name: string;
  /** from the start of the data */
  readonly offset: number;
  readonly length: number;
}

/** icuItems lists the items of ICU common data, and how many bytes header and table take before them. */
export function icuItems(data: Buffer): { tocBytes: number; items: IcuItem[] } {
  if (data.length < 32 || data[2] !== 0xda || data[3] !== 0x27)
    throw new Error('ICU data: no MappedData header (magic 0xda27)');
  const toc = data.readUInt16LE(0);
  const count = data.readUInt32LE(toc);
  if (toc + 4 + count * 8 > data.length)
    throw new Error(`ICU data: ${count} items do not fit in ${data.length} bytes`);
  const raw: { name: string; offset: number }[] = [];
  for (let i = 0; i < count; i++) {
    const nameAt = toc + data.readUInt32LE(toc + 4 + i * 8);
    const offset = toc + data.readUInt32LE(toc + 8 + i * 8);
    const end = data.indexOf(0, nameAt);
    if (end < 0 || offset > data.length) throw new Error(`ICU data: item ${i} lies outside the data`);
    raw.push({ name: data.toString('latin1', nameAt, end), offset });
  }
  raw.sort((a, b) => a.offset - b.offset);
  const items = raw.map((r, i) => ({ ...r, length: (raw[i + 1]?.offset ?? data.length) - r.offset }));
  return { tocBytes: items[0]?.offset ?? data.length, items };
}
