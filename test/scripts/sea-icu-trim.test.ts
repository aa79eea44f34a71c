// The trim of node's ICU data: the package writer and the locale indexes on the real data of the node
// this test runs on (the node the SEA is made from), and a copy of that node, trimmed, running Intl.
import { execFile } from 'node:child_process';
import { copyFile, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IcuDataError, icuItems, itemPath, packIcuData } from '../../scripts/rootfs/icu-data.js';
import { icuDataDigest, readIcuData } from '../../scripts/rootfs/icu-symbol.js';
import { filterResIndex } from '../../scripts/sea/icu-res-index.js';
import { converterMaxBytes, KEPT_LOCALES, trimIcuData, trimNodeIcu } from '../../scripts/sea/icu-trim.js';

const run = promisify(execFile);
let data: Buffer;
/** an item's bytes, by its name inside the data */
const item = (suffix: string) => {
  const it = icuItems(data).items.find((i) => itemPath(i.name) === suffix);
  if (!it) throw new Error(`no ${suffix} in node's ICU data`);
  return data.subarray(it.offset, it.offset + it.length);
};
/** the keys of a res_index's InstalledLocales as ICU reads them: filtering again with keep-all lists them */
const installed = (res: Buffer) => filterResIndex(res, () => true, 'res_index').kept;

beforeAll(async () => {
  const icu = await readIcuData(process.execPath);
  if (!icu) throw new Error('this node has no ICU data');
  data = icu.data;
});

describe('packIcuData', () => {
  it("writes back every item of node's data unchanged, in the same places", () => {
    const { tocBytes, items } = icuItems(data);
    const packed = packIcuData(
      data,
      items.map((it) => ({ name: it.name, bytes: data.subarray(it.offset, it.offset + it.length) })),
    );
    expect(packed.equals(data.subarray(0, packed.length))).toBe(true);
    expect(packed.length).toBe(data.length);
    expect(icuItems(packed).tocBytes).toBe(tocBytes);
  });

  it('aligns each item to 16 bytes and refuses names out of order', () => {
    const packed = packIcuData(data, [
      { name: 'icudt78l/a.res', bytes: Buffer.from('abc') },
      { name: 'icudt78l/b.res', bytes: Buffer.from('defgh') },
    ]);
    const { items } = icuItems(packed);
    expect(items.map((i) => [i.name, i.offset % 16, i.length])).toEqual([
      ['icudt78l/a.res', 0, 16],
      ['icudt78l/b.res', 0, 16],
    ]);
    expect(packed.toString('latin1', items[1]!.offset, items[1]!.offset + 5)).toBe('defgh');
    expect(() =>
      packIcuData(data, [
        { name: 'icudt78l/b.res', bytes: Buffer.alloc(1) },
        { name: 'icudt78l/a.res', bytes: Buffer.alloc(1) },
      ]),
    ).toThrow('icudt78l/a.res: not after icudt78l/b.res in name order');
  });

  it('reads zero-filled data with the last item ending after its last byte', () => {
    const packed = packIcuData(data, [{ name: 'icudt78l/a.res', bytes: Buffer.from('abc') }]);
    const padded = Buffer.concat([packed, Buffer.alloc(4096)]);
    expect(icuItems(padded).items[0]!.length).toBe(16 + 4096);
    expect(icuItems(padded, { zeroFilled: true }).items[0]!.length).toBe(16);
  });
});

describe('filterResIndex', () => {
  it('keeps the listed locales that pass, in a bundle ICU reads the same way', () => {
    const coll = item('coll/res_index.res');
    const all = installed(coll);
    expect(all).toEqual(expect.arrayContaining(['de', 'en', 'en_US_POSIX', 'zh']));
    const f = filterResIndex(coll, (l) => l.startsWith('en') || l === 'de', 'coll/res_index.res');
    expect(f.listed).toEqual(expect.arrayContaining([...all]));
    expect(f.kept).toEqual(['de', 'en', 'en_US', 'en_US_POSIX']);
    expect(installed(f.bytes)).toEqual(f.kept);
    expect(f.bytes.length).toBe(coll.length);
    expect(installed(coll)).toEqual(all); // the input is left alone
  });

  it("rewrites 16-bit tables too (the break iterators' index)", () => {
    const f = filterResIndex(item('brkitr/res_index.res'), (l) => l === 'en', 'brkitr');
    expect(f.listed.length).toBeGreaterThan(5);
    expect(installed(f.bytes)).toEqual(['en']);
  });

  it("refuses a key in the tree's pool bundle rather than misread it", () => {
    const res = Buffer.from(item('brkitr/res_index.res'));
    const data = res.readUInt16LE(0);
    const root = (res.readUInt32LE(data) & 0x0fffffff) * 4; // a TABLE: uint16 count, then key offsets
    res.writeUInt16LE(0xfff0, data + root + 2);
    expect(() => filterResIndex(res, () => true, 'brkitr')).toThrow(
      'brkitr: key at 65520 lies in a pool bundle, which this rewrite does not read',
    );
  });

  it('refuses what is not a resource bundle with locale tables, naming it', () => {
    expect(() => filterResIndex(Buffer.alloc(64), () => true, 'x.res')).toThrow(IcuDataError);
    expect(() => filterResIndex(Buffer.alloc(64), () => true, 'x.res')).toThrow(
      'x.res: no MappedData header',
    );
    expect(() => filterResIndex(item('supplementalData.res'), () => true, 'supplementalData.res')).toThrow(
      'supplementalData.res: has neither InstalledLocales nor AliasLocales',
    );
    expect(() => filterResIndex(item('ibm-5348_P100-1997.cnv'), () => true, 'cnv')).toThrow(
      'cnv: not a resource bundle of format 2 or 3 (cnvt',
    );
  });
});

describe('trimIcuData', () => {
  it('keeps root and English, the shared data and the single-byte converters', () => {
    const { data: trimmed, report } = trimIcuData(data);
    expect(report.before).toBe(data.length);
    expect(report.after).toBe(trimmed.length);
    expect(trimmed.length).toBeLessThan(data.length / 4);
    const names = new Set(icuItems(trimmed).items.map((i) => itemPath(i.name)));
    for (const kept of [
      'root.res',
      'en.res',
      'en_US_POSIX.res',
      'pool.res',
      'zoneinfo64.res',
      'supplementalData.res',
      'coll/root.res',
      'coll/ucadata.icu',
      'zone/en.res',
      'nfkc.nrm',
      'uts46.nrm',
      'brkitr/word.brk',
      'cnvalias.icu',
      'ibm-5348_P100-1997.cnv', // windows-1252
    ])
      expect(names, kept).toContain(kept);
    for (const dropped of [
      'de.res',
      'zh_Hant.res',
      'coll/zh.res',
      'zone/fr.res',
      'brkitr/cjdict.dict',
      'translit/root.res',
      'unames.icu',
      'gb18030-2022.cnv',
    ])
      expect(names, dropped).not.toContain(dropped);
    for (const [tree, { kept }] of report.locales) {
      expect(kept.length, tree).toBeGreaterThan(0);
      for (const l of kept) expect(KEPT_LOCALES).toContain(l);
    }
    // every tree with an index now lists what it has, nothing it lost
    for (const [tree] of report.locales) {
      const index = icuItems(trimmed).items.find((i) => i.name.endsWith(`/${tree}res_index.res`))!;
      for (const l of installed(trimmed.subarray(index.offset, index.offset + index.length)))
        expect(names, `${tree}${l}`).toContain(`${tree}${l}.res`);
    }
  });

  it("reads the converters' width from their static data", () => {
    expect(converterMaxBytes(item('ibm-5348_P100-1997.cnv'), 'windows-1252')).toBe(1);
    expect(converterMaxBytes(item('gb18030-2022.cnv'), 'gb18030')).toBe(4);
    expect(() => converterMaxBytes(item('root.res'), 'root.res')).toThrow(
      'root.res: not a converter (cnvt) item',
    );
  });
});

describe('a node with trimmed ICU data', () => {
  let dir: string;
  let node: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'keel-icu-'));
    node = join(dir, 'node');
    await copyFile(process.execPath, node);
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  const evaluate = async (exe: string, script: string) =>
    JSON.parse(
      (await run(exe, ['-e', `console.log(JSON.stringify(${script}))`], { env: {} })).stdout,
    ) as unknown;

  it('is written over the original in place, the rest zeroed, and a second trim changes nothing', async () => {
    const before = await icuDataDigest(node);
    const report = await trimNodeIcu(node);
    expect(report!.after).toBeLessThan(report!.before);
    const once = await readFile(node);
    expect(await icuDataDigest(node)).not.toBe(before);
    const icu = (await readIcuData(node))!;
    expect(icu.data.subarray(report!.after).every((b) => b === 0)).toBe(true);
    await trimNodeIcu(node);
    expect((await readFile(node)).equals(once)).toBe(true);
  }, 60_000);

  // English output as the untrimmed node gives it: machined's own uses of Intl and Date
  const SAME = `{
    date: new Date(Date.UTC(2026, 0, 15, 12, 30)).toString(),
    ny: new Date(0).toLocaleString('en-US', { timeZone: 'America/New_York', timeZoneName: 'long' }),
    num: (1234567.891).toLocaleString(),
    unit: new Intl.NumberFormat('en', { style: 'unit', unit: 'megabyte' }).format(12),
    sorted: ['b', 'a', 'B', '\\u00e4', 'z'].sort((a, b) => a.localeCompare(b)),
    nfc: 'e\\u0301'.normalize('NFC'), nfkd: '\\ufb01'.normalize('NFKD'),
    words: [...new Intl.Segmenter('en', { granularity: 'word' }).segment('Hello, world')].map((s) => s.segment),
    plural: new Intl.PluralRules('en').select(1), rtf: new Intl.RelativeTimeFormat('en').format(-1, 'day'),
    region: new Intl.DisplayNames('en', { type: 'region' }).of('DE'),
    latin1: new TextDecoder('windows-1252').decode(Uint8Array.of(0x80, 0xe9)),
    host: new URL('https://b\\u00fccher.example/').hostname,
    zones: Intl.supportedValuesOf('timeZone').length,
  }`;

  it('formats English as before', async () => {
    await trimNodeIcu(node);
    expect(await evaluate(node, SAME)).toEqual(await evaluate(process.execPath, SAME));
  }, 60_000);

  it('says other locales are not there, falls back to English, and refuses multi-byte encodings', async () => {
    await trimNodeIcu(node);
    expect(
      await evaluate(
        node,
        `{
        supported: Intl.DateTimeFormat.supportedLocalesOf(['de', 'en', 'ja']),
        collators: Intl.Collator.supportedLocalesOf(['en-US', 'zh']),
        german: new Intl.DateTimeFormat('de', { month: 'long', timeZone: 'UTC' }).format(new Date(9e8)),
        sjis: (() => { try { return new TextDecoder('shift_jis'); } catch (e) { return e.code; } })(),
      }`,
      ),
    ).toEqual({
      supported: ['en'],
      collators: ['en-US'],
      german: 'January',
      sjis: 'ERR_ENCODING_NOT_SUPPORTED',
    });
  }, 60_000);
});
