// The read-ahead plan of machined's executable: the pure planning, and the ICU data found in the real
// node this test runs on (the same executable the SEA is made from).
import { mkdtemp, open, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findDynamicSymbols } from '../../scripts/rootfs/elf.js';
import { readElfLayout } from '../../scripts/rootfs/elf-layout.js';
import { icuItems } from '../../scripts/rootfs/icu-data.js';
import { icuDataDigest, readIcuData } from '../../scripts/rootfs/icu-symbol.js';
import {
  COLD_SYMBOL,
  ICU_ITEMS_READ_AT_START,
  icuPlan,
  MAX_READ_AHEAD_RANGES,
  planReadAhead,
  readAheadPlanFor,
  renderReadAheadPlan,
} from '../../scripts/rootfs/read-ahead.js';

const MiB = 1 << 20;

describe('planReadAhead', () => {
  it('keeps everything around a cold range, in file order', () => {
    expect(planReadAhead(10 * MiB, [{ offset: 4 * MiB, length: 3 * MiB }])).toEqual([
      { offset: 0, length: 4 * MiB },
      { offset: 7 * MiB, length: 3 * MiB },
    ]);
  });

  it('takes the whole file when nothing is cold', () => {
    expect(planReadAhead(5000, [])).toEqual([{ offset: 0, length: 5000 }]);
  });

  it('sorts, merges and clips cold ranges that overlap or run past the end', () => {
    expect(
      planReadAhead(100, [
        { offset: 90, length: 50 },
        { offset: 10, length: 20 },
        { offset: 20, length: 20 },
        { offset: 0, length: 5 },
      ]),
    ).toEqual([
      { offset: 5, length: 5 },
      { offset: 40, length: 50 },
    ]);
  });

  it('plans nothing for a file that is cold throughout', () => {
    expect(planReadAhead(100, [{ offset: 0, length: 100 }])).toEqual([]);
  });

  it('adds warm ranges inside cold ones, merging what touches or overlaps', () => {
    expect(
      planReadAhead(
        100,
        [{ offset: 20, length: 60 }],
        [
          { offset: 50, length: 5 },
          { offset: 20, length: 3 },
          { offset: 52, length: 10 },
          { offset: 95, length: 20 },
        ],
      ),
    ).toEqual([
      { offset: 0, length: 23 },
      { offset: 50, length: 12 },
      { offset: 80, length: 20 },
    ]);
  });
});

describe('renderReadAheadPlan', () => {
  it('writes comments, then one decimal "OFFSET LENGTH" line per range', () => {
    expect(
      renderReadAheadPlan(
        [
          { offset: 0, length: 4096 },
          { offset: 8192, length: 1 },
        ],
        ['why'],
      ),
    ).toBe('# why\n0 4096\n8192 1\n');
  });

  it('writes another file as its absolute path, in the order given', () => {
    expect(renderReadAheadPlan([{ path: '/usr/lib/keel/koffi.node' }, { offset: 0, length: 9 }], [])).toBe(
      '/usr/lib/keel/koffi.node\n0 9\n',
    );
    expect(() => renderReadAheadPlan([{ path: 'usr/lib/x' }], [])).toThrow(
      'read-ahead plan: "usr/lib/x" is not an absolute path on one line',
    );
    expect(() => renderReadAheadPlan([{ path: '/a\nb' }], [])).toThrow(/is not an absolute path on one line/);
  });

  it('refuses what stage 1 would reject', () => {
    const many = Array.from({ length: MAX_READ_AHEAD_RANGES + 1 }, (_, i) => ({ offset: i * 2, length: 1 }));
    expect(() => renderReadAheadPlan(many, [])).toThrow(/1025 entries, stage 1 takes at most 1024/);
    expect(() => renderReadAheadPlan([{ offset: 0, length: 0 }], [])).toThrow(/invalid range 0 \+0/);
    expect(() => renderReadAheadPlan([{ offset: -1, length: 4 }], [])).toThrow(/invalid range -1 \+4/);
  });
});

describe("node's ICU data", () => {
  it('is found in the file where its bytes are: the ICU common data header', async () => {
    const [icu, ...more] = await findDynamicSymbols(process.execPath, COLD_SYMBOL);
    expect(more).toEqual([]);
    expect(icu!.size).toBeGreaterThan(20 * MiB);
    const fh = await open(process.execPath, 'r');
    try {
      const head = Buffer.alloc(16);
      await fh.read(head, 0, 16, icu!.offset);
      // MappedData magic (0xda 0x27), then the data format of ICU's common data: "CmnD"
      expect([head[2], head[3]]).toEqual([0xda, 0x27]);
      expect(head.toString('latin1', 12, 16)).toBe('CmnD');
    } finally {
      await fh.close();
    }
  });

  it('is left out of the plan for node but for its table and the items the start reads', async () => {
    const { size } = await stat(process.execPath);
    const { text, cold, warm } = await icuPlan(process.execPath, size, ['/usr/lib/keel/koffi.node']);
    const lines = text.split('\n').filter((l) => l && !l.startsWith('#'));
    // the other files first, whole
    expect(lines[0]).toBe('/usr/lib/keel/koffi.node');
    const ranges = lines.slice(1).map((l) => l.split(' ').map(Number) as [number, number]);
    const icu = cold[0]!;
    // every item asked for exists in this ICU, and the table of contents leads
    expect(warm.map((w) => w.name.replace(/^icudt\d+l\//, '')).sort()).toEqual(
      [`${icu.name} table of contents`, ...ICU_ITEMS_READ_AT_START].sort(),
    );
    // the executable before ICU's data, with its table of contents; each item; the rest after the data
    expect(ranges[0]).toEqual([0, warm[0]!.offset + warm[0]!.length]);
    expect(ranges.at(-1)).toEqual([icu.offset + icu.size, size - icu.offset - icu.size]);
    const inIcu = ranges.slice(1, -1);
    expect(inIcu.length).toBeGreaterThan(0);
    for (const [offset, length] of inIcu) {
      expect(offset).toBeGreaterThan(icu.offset);
      expect(offset + length).toBeLessThanOrEqual(icu.offset + icu.size);
    }
    const planned = inIcu.reduce((n, [, length]) => n + length, 0);
    expect(planned).toBeLessThan(2 * MiB); // of 32 MiB
    expect(text).toContain(`# left out: ${icu.name} at ${icu.offset}, ${icu.size} bytes, but for\n`);
  });

  it("lists the items of node's ICU data in order, each up to the next", async () => {
    const { symbol: icu, data } = (await readIcuData(process.execPath))!;
    const { tocBytes, items } = icuItems(data);
    expect(items.length).toBeGreaterThan(1000);
    expect(items[0]!.offset).toBe(tocBytes);
    for (let i = 1; i < items.length; i++)
      expect(items[i]!.offset).toBe(items[i - 1]!.offset + items[i - 1]!.length);
    expect(items.at(-1)!.offset + items.at(-1)!.length).toBe(icu!.size);
    const zones = items.find((it) => it.name.endsWith('/zoneinfo64.res'))!;
    // a resource bundle: its own MappedData header, data format "ResB"
    expect([data[zones.offset + 2], data[zones.offset + 3]]).toEqual([0xda, 0x27]);
    expect(data.toString('latin1', zones.offset + 12, zones.offset + 16)).toBe('ResB');
    expect(() => icuItems(Buffer.alloc(64))).toThrow('ICU data: no MappedData header (magic 0xda27)');
  });

  it('names a file that is not ELF', async () => {
    const notElf = join(tmpdir(), `keel-not-elf-${process.pid}`);
    await writeFile(notElf, 'x'.repeat(128));
    await expect(findDynamicSymbols(notElf, COLD_SYMBOL)).rejects.toThrow(`${notElf}: not an ELF file`);
  });
});

describe('readAheadPlanFor', () => {
  const layoutOf = () => readElfLayout(process.execPath);

  it("follows the start trace of the executable's node build when there is one", async () => {
    const { size } = await stat(process.execPath);
    const { buildId, loads } = await layoutOf();
    const text = loads[2]!; // node's .text segment
    const dir = await mkdtemp(join(tmpdir(), 'keel-traces-'));
    try {
      const window = text.vaddr - (text.vaddr % 65536) + 65536;
      await writeFile(
        join(dir, `${buildId}.trace`),
        `build-id ${buildId}\nicu-data ${await icuDataDigest(process.execPath)}\nwindow 0x${window.toString(16)}\nfile /usr/lib/keel/koffi.node\nwindow 0x${(window - 65536).toString(16)}\n`,
      );
      const plan = await readAheadPlanFor(process.execPath, size, {
        first: ['/usr/lib/keel/koffi.node', '/usr/lib/other.so'],
        traces: { dir, blockSize: 131072 },
      });
      expect(plan.trace).toBe(join(dir, `${buildId}.trace`));
      const lines = plan.text.split('\n').filter((l) => l && !l.startsWith('#'));
      // a first file the trace does not place leads; koffi stays where the trace saw it
      const at = text.offset + (window - text.vaddr);
      const block = (o: number) => Math.floor(o / 131072) * 131072;
      expect(lines).toEqual([
        '/usr/lib/other.so',
        `${block(at)} ${block(at + 65535) + 131072 - block(at)}`,
        '/usr/lib/keel/koffi.node',
        ...(block(at - 65536) < block(at) ? [`${block(at - 65536)} 131072`] : []),
      ]);
    } finally {
      await rm(dir, { recursive: true });
    }
  });

  it('plans in file order without a trace of this build, or without trace directory', async () => {
    const { size } = await stat(process.execPath);
    const dir = await mkdtemp(join(tmpdir(), 'keel-traces-'));
    try {
      await writeFile(join(dir, '00.trace'), 'build-id 00\nicu-data none\nwindow 0x0\n');
      const icu = await icuPlan(process.execPath, size, ['/usr/lib/keel/koffi.node']);
      const withDir = await readAheadPlanFor(process.execPath, size, {
        first: ['/usr/lib/keel/koffi.node'],
        traces: { dir, blockSize: 131072 },
      });
      expect(withDir.trace).toBeUndefined();
      expect(withDir.text).toBe(icu.text);
      expect(
        (await readAheadPlanFor(process.execPath, size, { first: ['/usr/lib/keel/koffi.node'] })).text,
      ).toBe(icu.text);
    } finally {
      await rm(dir, { recursive: true });
    }
  });

  it('plans in file order, and says why, when the trace of this build saw other ICU data', async () => {
    const { size } = await stat(process.execPath);
    const { buildId } = await layoutOf();
    const dir = await mkdtemp(join(tmpdir(), 'keel-traces-'));
    try {
      const file = join(dir, `${buildId}.trace`);
      await writeFile(file, `build-id ${buildId}\nicu-data 0123456789abcdef\nwindow 0x0\n`);
      const plan = await readAheadPlanFor(process.execPath, size, { traces: { dir, blockSize: 131072 } });
      expect(plan.trace).toBeUndefined();
      expect(plan.staleTrace).toBe(file);
      expect(plan.text).toBe((await icuPlan(process.execPath, size)).text);
    } finally {
      await rm(dir, { recursive: true });
    }
  });

  it('refuses a broken trace of this build, naming the file and line', async () => {
    const { size } = await stat(process.execPath);
    const { buildId } = await layoutOf();
    const dir = await mkdtemp(join(tmpdir(), 'keel-traces-'));
    try {
      await writeFile(join(dir, `${buildId}.trace`), `build-id ${buildId}\nicu-data none\nwindow 0x1234\n`);
      await expect(
        readAheadPlanFor(process.execPath, size, { traces: { dir, blockSize: 131072 } }),
      ).rejects.toThrow(
        `${join(dir, `${buildId}.trace`)}:3: window 0x1234 is not a hex address aligned to 65536 bytes`,
      );
    } finally {
      await rm(dir, { recursive: true });
    }
  });
});
