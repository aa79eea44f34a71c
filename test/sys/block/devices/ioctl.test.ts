// The block ioctls on loop devices, with blockdev(8) and lsblk(8) as the judges.
import { closeSync, openSync } from 'node:fs';
import { describe, expect, it, onTestFinished } from 'vitest';
import {
  discard,
  getIOSize,
  getLogicalSectorSize,
  getMinimumIOSize,
  getOptimalIOSize,
  getPhysicalSectorSize,
  getSize,
  isCdrom,
  isCdromNoMedia,
  isReadOnly,
  rereadPartitions,
  zeroOut,
} from '../../../../src/sys/block/devices/ioctl.js';
import { closeBlockDevice, openBlockDevice } from '../../../../src/sys/block/devices/open.js';
import { listBlockDevices } from '../../../../src/sys/block/devices/sysfs.js';
import { LO_FLAGS } from '../../../../src/sys/ioctl-loop.js';
import { attachLoop, image, lsblk, partitionedLoop, readBytes, run, tempDir } from './loop-fixture.js';

function opened(path: string, write = false) {
  const d = openBlockDevice(path, { write });
  onTestFinished(() => closeBlockDevice(d));
  return d;
}

/** blockdev's answers, in the order asked */
function blockdev(path: string): number[] {
  return run('blockdev', ['--getsize64', '--getss', '--getpbsz', '--getiomin', '--getioopt', '--getro', path])
    .trim()
    .split('\n')
    .map(Number);
}

describe('block ioctls', () => {
  it('read the size, sector sizes, I/O sizes and read-only flag blockdev reads', () => {
    const loop = attachLoop(image(tempDir('geom'), 12 << 20), { blockSize: 4096, flags: LO_FLAGS.READ_ONLY });
    const d = opened(loop.path);
    const [size, ss, pbsz, iomin, ioopt, ro] = blockdev(loop.path);
    expect(getSize(d)).toBe(BigInt(size!));
    expect(getSize(d)).toBe(12n << 20n);
    expect(getLogicalSectorSize(d)).toBe(ss);
    expect(getLogicalSectorSize(d)).toBe(4096);
    expect(getPhysicalSectorSize(d)).toBe(pbsz);
    expect(getMinimumIOSize(d)).toBe(iomin);
    expect(getOptimalIOSize(d)).toBe(ioopt);
    expect(isReadOnly(d)).toBe(ro === 1);
    expect(isReadOnly(d)).toBe(true);
    // no optimal size: the minimum, a power of two, is what upstream's Disk shows
    expect(getIOSize(d)).toBe(iomin);
    expect(isCdrom(d)).toBe(false);
    // a disk is no drive without a disc: the CD-ROM layer's question is refused, and answered false
    expect(isCdromNoMedia(d)).toBe(false);
  });

  it('name the device and the request when the device refuses', () => {
    const loop = attachLoop(image(tempDir('refuse'), 4 << 20)); // no PARTSCAN: the kernel scans nothing
    const d = opened(loop.path);
    expect(() => rereadPartitions(d)).toThrow(
      expect.objectContaining({ name: 'BlockError', code: 'unsupported', device: loop.path }),
    );
    expect(() => rereadPartitions(d)).toThrow(/BLKRRPART: ioctl\(\d+, "0x125f"\): EINVAL/);
  });

  it('re-read a partition table only while no partition is open', async () => {
    const loop = partitionedLoop(tempDir('rrpart'));
    const d = opened(loop.path);
    const part = openSync(`${loop.path}p1`, 'r');
    let partOpen = true;
    onTestFinished(() => {
      if (partOpen) closeSync(part);
    });
    expect(() => rereadPartitions(d)).toThrow(expect.objectContaining({ code: 'busy', device: loop.path }));
    closeSync(part);
    partOpen = false;
    rereadPartitions(d);
    // sysfs then shows what the kernel found (all with a GPT parser, nothing without), as lsblk does
    const mine = (await listBlockDevices())
      .filter((x) => x.name.startsWith(`${loop.name}p`))
      .map((x) => x.name);
    const theirs = lsblk(loop.path)
      .filter((x) => x.type === 'part')
      .map((x) => x.name);
    expect(mine).toEqual(theirs);
    expect(mine.length).toBe(loop.scannedByKernel ? 2 : 0);
  });

  it('refuse a range off the sectors or past the end before the kernel sees it', async () => {
    const loop = attachLoop(image(tempDir('range'), 4 << 20));
    const d = opened(loop.path, true);
    await expect(zeroOut(d, 100n, 512n)).rejects.toMatchObject({ code: 'out-of-range', device: loop.path });
    await expect(zeroOut(d, 0n, 5n << 20n)).rejects.toThrow(/ends past the device's 4194304 bytes/);
    await expect(discard(d, -512n, 512n)).rejects.toMatchObject({ code: 'out-of-range' });
  });

  it('discard and zero out a range, off the main thread', async () => {
    const loop = attachLoop(image(tempDir('zero'), 4 << 20, 0x5a));
    const d = opened(loop.path, true);
    await zeroOut(d, 1n << 20n, 1n << 20n);
    await discard(d, 3n << 20n, 1n << 20n);
    const buf = readBytes(loop.path, 0, 4 << 20);
    expect(buf.subarray(0, 1 << 20).every((b) => b === 0x5a)).toBe(true);
    expect(buf.subarray(1 << 20, 2 << 20).every((b) => b === 0)).toBe(true);
    expect(buf.subarray(2 << 20, 3 << 20).every((b) => b === 0x5a)).toBe(true);
  });

  it('fail a range call on a descriptor opened read-only with the errno the kernel gives', async () => {
    const loop = attachLoop(image(tempDir('rofd'), 4 << 20));
    const d = opened(loop.path);
    await expect(zeroOut(d, 0n, 512n)).rejects.toThrow(/BLKZEROOUT: ioctl\(\d+, "0x127f"\): EBADF/);
  });
});
