// The read-ahead plan of machined's executable: the pure planning, and the ICU data found in the real
// node this test runs on (the same executable the SEA is made from).
import { open, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findDynamicSymbols } from '../../scripts/rootfs/elf.js';
import {
  COLD_SYMBOL,
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

  it('refuses what stage 1 would reject', () => {
    const many = Array.from({ length: MAX_READ_AHEAD_RANGES + 1 }, (_, i) => ({ offset: i * 2, length: 1 }));
    expect(() => renderReadAheadPlan(many, [])).toThrow(/17 ranges, stage 1 takes at most 16/);
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

  it('is left out of the plan for node, and everything else is in it', async () => {
    const { size } = await stat(process.execPath);
    const { text, cold } = await readAheadPlanFor(process.execPath, size);
    const ranges = text
      .split('\n')
      .filter((l) => l && !l.startsWith('#'))
      .map((l) => l.split(' ').map(Number));
    const icu = cold[0]!;
    expect(ranges).toEqual([
      [0, icu.offset],
      [icu.offset + icu.size, size - icu.offset - icu.size],
    ]);
    expect(text).toContain(`# left out: ${icu.name} at ${icu.offset}, ${icu.size} bytes\n`);
  });

  it('names a file that is not ELF', async () => {
    const notElf = join(tmpdir(), `keel-not-elf-${process.pid}`);
    await writeFile(notElf, 'x'.repeat(128));
    await expect(findDynamicSymbols(notElf, COLD_SYMBOL)).rejects.toThrow(`${notElf}: not an ELF file`);
  });
});
