import { describe, expect, it } from 'vitest';
import {
  BLKGETSIZE64,
  BLKPG,
  BLKSSZGET,
  blkpg,
  blockSectorSize,
  blockSizeBytes,
} from '../../../../src/sys/block/gpt/ioctl.js';
import { isSysError } from '../../../../src/sys/errno.js';
import { attachLoop, sparseImage } from './loop-device.js';

const MiB = 1 << 20;
// asm-generic/ioctl.h: dir << 30 | size << 16 | type << 8 | nr
const io = (nr: number) => (0x12 << 8) | nr;
const ior = (nr: number, size: number) => ((2 << 30) | (size << 16) | (0x12 << 8) | nr) >>> 0;

describe('block ioctls', () => {
  it('uses the generic encoding for the numbers (x86_64 and arm64 alike)', () => {
    expect(BLKSSZGET).toBe(io(104));
    expect(BLKPG).toBe(io(105));
    expect(BLKGETSIZE64).toBe(ior(114, 8));
  });

  it.each([512, 4096])('reads a %d-byte logical sector size and the size of a loop device', (bs) => {
    const loop = attachLoop(sparseImage(48 * MiB), { blockSize: bs });
    expect(blockSectorSize(loop.fd)).toBe(bs);
    expect(blockSizeBytes(loop.fd)).toBe(BigInt(48 * MiB));
  });

  it('adds, resizes and deletes one kernel partition with BLKPG, offsets in bytes', () => {
    const loop = attachLoop(sparseImage(16 * MiB), { blockSize: 4096 });
    blkpg(loop.fd, 'add', 3, BigInt(MiB), BigInt(2 * MiB));
    expect([loop.sysfs(3, 'start'), loop.sysfs(3, 'size')]).toEqual([2048n, 4096n]);
    blkpg(loop.fd, 'resize', 3, BigInt(MiB), BigInt(5 * MiB));
    expect(loop.sysfs(3, 'size')).toBe(10240n);
    blkpg(loop.fd, 'delete', 3);
    expect(loop.hasPartition(3)).toBe(false);
    let err: unknown;
    try {
      blkpg(loop.fd, 'delete', 3);
    } catch (e) {
      err = e;
    }
    expect(isSysError(err, 'ENXIO')).toBe(true);
    expect((err as Error).message).toMatch(/^ioctl\(BLKPG delete\)\(\d+, 3\): ENXIO/);
  });
});
