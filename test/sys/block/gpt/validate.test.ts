import { describe, expect, it } from 'vitest';
import { GptError } from '../../../../src/sys/block/gpt/errors.js';
import { addPartition, createTable, type GptTable } from '../../../../src/sys/block/gpt/table.js';
import { PARTITION_TYPE } from '../../../../src/sys/block/gpt/types.js';
import { validateTable } from '../../../../src/sys/block/gpt/validate.js';

const base = (): GptTable => {
  let t = createTable({ diskSectors: 131072n, sectorSize: 512 });
  for (const name of ['A', 'B'])
    t = addPartition(t, { name, size: 1n << 20n, type: PARTITION_TYPE.linuxSwap }).table;
  return t;
};

const errorOf = (t: GptTable): GptError => {
  try {
    validateTable(t, 'primary table');
  } catch (e) {
    if (e instanceof GptError) return e;
    throw e;
  }
  throw new Error('did not throw');
};

describe('validateTable', () => {
  it('passes a table the operations made', () => {
    expect(() => validateTable(base())).not.toThrow();
  });

  it('names two partitions that overlap', () => {
    const t = base();
    const bad = {
      ...t,
      partitions: t.partitions.map((p) => (p.number === 1 ? { ...p, lastLba: 4096n } : p)),
    };
    const e = errorOf(bad);
    expect(e.code).toBe('overlap');
    expect(e.message).toBe(
      'primary table: partition 1 (LBA 2048..4096) and partition 2 (LBA 4096..6143) overlap',
    );
  });

  it('names a partition outside the usable range, or ending before it starts', () => {
    const t = base();
    const out = {
      ...t,
      partitions: t.partitions.map((p) => (p.number === 2 ? { ...p, lastLba: 131039n } : p)),
    };
    expect(errorOf(out).message).toBe(
      'primary table: partition 2 ("B"): LBA 4096..131039 is outside the usable 2048..131038',
    );
    expect(errorOf(out).code).toBe('out-of-range');
    const early = {
      ...t,
      partitions: t.partitions.map((p) => (p.number === 1 ? { ...p, firstLba: 33n } : p)),
    };
    expect(errorOf(early).code).toBe('out-of-range');
    const reversed = {
      ...t,
      partitions: t.partitions.map((p) => (p.number === 1 ? { ...p, lastLba: 100n } : p)),
    };
    expect(errorOf(reversed).message).toMatch(/partition 1 \("A"\): ends at LBA 100, before its start 2048/);
  });

  it('refuses a usable range that runs into either array', () => {
    const t = base();
    expect(errorOf({ ...t, firstUsableLba: 33n }).code).toBe('bad-header');
    expect(errorOf({ ...t, lastUsableLba: 131039n }).message).toBe(
      'primary table: the last usable LBA 131039 runs into the backup array at LBA 131039',
    );
    expect(errorOf({ ...t, partitions: [], lastUsableLba: 2000n }).code).toBe('bad-header');
  });

  it('refuses duplicate numbers', () => {
    const t = base();
    expect(errorOf({ ...t, partitions: t.partitions.map((p) => ({ ...p, number: 1 })) }).code).toBe(
      'invalid-argument',
    );
  });
});
