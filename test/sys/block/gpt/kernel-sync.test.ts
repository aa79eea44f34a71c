import { describe, expect, it } from 'vitest';
import { readGpt, writeGpt } from '../../../../src/sys/block/gpt/device.js';
import { GptError } from '../../../../src/sys/block/gpt/errors.js';
import {
  type KernelPartition,
  kernelPartitions,
  kernelPartitionsOf,
  planKernelSync,
} from '../../../../src/sys/block/gpt/kernel-sync.js';
import {
  addPartition,
  createTable,
  deletePartition,
  type GptTable,
  growPartition,
} from '../../../../src/sys/block/gpt/table.js';
import { PARTITION_TYPE } from '../../../../src/sys/block/gpt/types.js';
import { attachLoop, sparseImage } from './loop-device.js';

const MiB = 1n << 20n;
const k = (number: number, offsetMiB: number, lengthMiB: number): KernelPartition => ({
  number,
  offset: BigInt(offsetMiB) * MiB,
  length: BigInt(lengthMiB) * MiB,
});

describe('planKernelSync', () => {
  it('does nothing when the kernel already agrees', () => {
    expect(planKernelSync([k(1, 1, 4), k(2, 5, 4)], [k(2, 5, 4), k(1, 1, 4)])).toEqual([]);
  });

  it('deletes, shrinks, grows, then adds, so no step overlaps the next', () => {
    const now = [k(1, 1, 4), k(2, 5, 4), k(3, 9, 4), k(4, 13, 4)];
    const want = [k(1, 1, 2), k(2, 3, 2), k(3, 9, 8), k(5, 20, 1)];
    expect(planKernelSync(now, want)).toEqual([
      { op: 'delete', number: 2 },
      { op: 'delete', number: 4 },
      { op: 'resize', ...k(1, 1, 2) },
      { op: 'resize', ...k(3, 9, 8) },
      { op: 'add', ...k(2, 3, 2) },
      { op: 'add', ...k(5, 20, 1) },
    ]);
  });
});

function layout(): GptTable {
  let t = createTable({ diskSectors: 131072n, sectorSize: 512 });
  for (const [name, size] of [
    ['STATE', 8n * MiB],
    ['B', 8n * MiB],
    ['C', 8n * MiB],
  ] as const)
    t = addPartition(t, { name, size, type: PARTITION_TYPE.linuxFilesystem }).table;
  return t;
}

describe('the kernel’s partitions after a write', () => {
  it('changes only what changed, also while a partition is open', async () => {
    const loop = attachLoop(sparseImage(64 * 1024 * 1024));
    const t = layout();
    await writeGpt(loop.fd, t);
    expect(kernelPartitions(loop.fd)).toEqual(kernelPartitionsOf(t));
    loop.openPartition(1); // STATE stays mounted, so to speak

    let next = deletePartition(t, 2);
    next = growPartition(next, 1, 4n * MiB);
    next = growPartition(next, 3);
    next = addPartition(next, { name: 'NEW', size: 2n * MiB, type: PARTITION_TYPE.linuxSwap }).table;
    const res = await writeGpt(loop.fd, next);
    expect(res.kernel?.ops.map((o) => [o.op, o.number])).toEqual([
      ['delete', 2],
      ['resize', 1],
      ['resize', 3],
      ['add', 2],
    ]);
    expect(kernelPartitions(loop.fd)).toEqual(kernelPartitionsOf(next));
    expect(loop.sysfs(1, 'size')).toBe((12n * MiB) / 512n);

    const again = await writeGpt(loop.fd, next);
    expect(again.kernel?.ops).toEqual([]);
  });

  it('says which partition it could not change while it is open, with the table written', async () => {
    const loop = attachLoop(sparseImage(64 * 1024 * 1024));
    const t = layout();
    await writeGpt(loop.fd, t);
    loop.openPartition(1);
    const moved = addPartition(deletePartition(t, 1), {
      name: 'STATE',
      size: 4n * MiB,
      type: PARTITION_TYPE.linuxFilesystem,
      number: 1,
    }).table;
    expect(moved.partitions[0]?.firstLba).toBe(2048n); // same place as before: make it move
    const shifted = {
      ...moved,
      partitions: moved.partitions.map((p) => (p.number === 1 ? { ...p, firstLba: 4096n } : p)),
    };
    let err: unknown;
    try {
      await writeGpt(loop.fd, shifted);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(GptError);
    expect((err as GptError).code).toBe('kernel-sync');
    expect((err as GptError).message).toMatch(
      /^the table is written, but the kernel could not delete partition 1 \(it is in use\): ioctl\(BLKPG delete\)/,
    );
    expect((await readGpt(loop.fd)).table).toEqual(shifted);
    expect(loop.sysfs(1, 'start')).toBe(2048n); // the kernel keeps the open one where it was
  });

  it('says so when the device takes no partitions: a partition itself', async () => {
    const loop = attachLoop(sparseImage(64 * 1024 * 1024));
    const outer = layout();
    await writeGpt(loop.fd, outer);
    const part = loop.openPartition(3, 'r+');
    const inner = addPartition(createTable({ diskSectors: (8n * MiB) / 512n, sectorSize: 512 }), {
      name: 'INNER',
      size: MiB,
      type: PARTITION_TYPE.linuxFilesystem,
    }).table;
    let err: unknown;
    try {
      await writeGpt(part, inner);
    } catch (e) {
      err = e;
    }
    expect((err as GptError).code).toBe('kernel-sync');
    expect((err as GptError).message).toMatch(
      /^the table is written, but the kernel could not add partition 1 \(the device takes no partitions/,
    );
    expect((await readGpt(part)).table).toEqual(inner);
  });
});
