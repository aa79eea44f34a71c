import { describe, expect, it } from 'vitest';
import type { Partition } from '../../../../src/sys/block/gpt/entry.js';
import {
  alignDown,
  alignedWhole,
  alignUp,
  earliestLba,
  freeExtents,
  laterLba,
} from '../../../../src/sys/block/gpt/extents.js';

const p = (number: number, firstLba: bigint, lastLba: bigint): Partition => ({
  number,
  type: '0FC63DAF-8483-4772-8E79-3D69D8477DE4',
  guid: '00000000-0000-0000-0000-000000000001',
  firstLba,
  lastLba,
  attributes: 0n,
  name: '',
});

describe('free extents', () => {
  it('lists the gaps in disk order, whatever the entry order', () => {
    const parts = [p(1, 4096n, 6143n), p(2, 2048n, 4095n), p(3, 10240n, 12287n)];
    expect(freeExtents(parts, 34n, 20000n)).toEqual([
      { first: 34n, last: 2047n },
      { first: 6144n, last: 10239n },
      { first: 12288n, last: 20000n },
    ]);
    expect(freeExtents([], 2048n, 2048n)).toEqual([{ first: 2048n, last: 2048n }]);
    expect(freeExtents([p(1, 2048n, 9999n)], 2048n, 9999n)).toEqual([]);
  });

  it('aligns starts up, ends down, and keeps whole alignment units', () => {
    expect(alignUp(34n, 2048n)).toBe(2048n);
    expect(alignUp(2048n, 2048n)).toBe(2048n);
    expect(alignDown(131038n, 2048n)).toBe(129024n);
    expect(alignedWhole({ first: 24576n, last: 131038n }, 2048n)).toEqual({ first: 24576n, last: 129023n });
    expect(alignedWhole({ first: 34n, last: 2047n }, 2048n)).toBeUndefined();
  });

  it('picks larger and smallest LBAs without Math', () => {
    expect(laterLba(3n, 5n)).toBe(5n);
    expect(laterLba(5n, 3n)).toBe(5n);
    expect(earliestLba([9n, 4n, 7n])).toBe(4n);
    expect(earliestLba([])).toBeUndefined();
  });
});
