// fastWipe and its parts on loop devices filled with non-zero bytes, checked by reading the device back.
import { describe, expect, it, onTestFinished } from 'vitest';
import { closeBlockDevice, openBlockDevice } from '../../../../src/sys/block/devices/open.js';
import {
  FAST_WIPE_RANGE,
  fastWipe,
  fastWipeRanges,
  wipeRange,
  writeZeros,
} from '../../../../src/sys/block/devices/wipe.js';
import { LO_FLAGS } from '../../../../src/sys/ioctl-loop.js';
import { attachLoop, image, readBytes, tempDir } from './loop-fixture.js';

const MiB = 1 << 20;
const FILL = 0xab;

const zeros = (b: Buffer) => b.every((x) => x === 0);
const filled = (b: Buffer) => b.every((x) => x === FILL);

function filledLoop(size: number, flags = 0) {
  const loop = attachLoop(image(tempDir('wipe'), size, FILL), { flags });
  const d = openBlockDevice(loop.path, { write: true });
  onTestFinished(() => closeBlockDevice(d));
  return d;
}

describe('fastWipeRanges', () => {
  it('zeroes a small device whole and a larger one at both ends, never twice', () => {
    const M = FAST_WIPE_RANGE;
    expect(fastWipeRanges(0n)).toEqual([]);
    expect(fastWipeRanges(M / 2n)).toEqual([[0n, M / 2n]]);
    expect(fastWipeRanges(M)).toEqual([[0n, M]]);
    expect(fastWipeRanges(M + M / 2n)).toEqual([
      [0n, M],
      [M, M / 2n],
    ]);
    expect(fastWipeRanges(10n * M)).toEqual([
      [0n, M],
      [9n * M, M],
    ]);
  });
});

describe('fastWipe', () => {
  it('zeroes the first and last MiB of a filled device, after discarding it', async () => {
    const d = filledLoop(8 * MiB);
    const r = await fastWipe(d);
    expect(r).toEqual({
      size: BigInt(8 * MiB),
      discarded: true, // a loop over a file that can punch holes discards
      zeroed: [
        { start: 0n, length: BigInt(MiB), method: 'zeroout' },
        { start: BigInt(7 * MiB), length: BigInt(MiB), method: 'zeroout' },
      ],
    });
    expect(zeros(readBytes(d.path, 0, MiB))).toBe(true);
    expect(zeros(readBytes(d.path, 7 * MiB, MiB))).toBe(true);
  });

  it('zeroes all of a device smaller than two MiB', async () => {
    const d = filledLoop(MiB + MiB / 2);
    await fastWipe(d);
    expect(zeros(readBytes(d.path, 0, MiB + MiB / 2))).toBe(true);
  });

  it('touches nothing on a descriptor opened read-only or a device the kernel marks read-only', async () => {
    const loop = attachLoop(image(tempDir('wipe-ro'), 4 * MiB, FILL));
    const ro = openBlockDevice(loop.path);
    onTestFinished(() => closeBlockDevice(ro));
    await expect(fastWipe(ro)).rejects.toMatchObject({
      code: 'read-only',
      device: loop.path,
      message: `${loop.path}: opened read-only; open it for writing to wipe it`,
    });
    const roDisk = filledLoop(4 * MiB, LO_FLAGS.READ_ONLY);
    await expect(fastWipe(roDisk)).rejects.toMatchObject({
      code: 'read-only',
      message: `${roDisk.path}: the kernel marks the device read-only`,
    });
    expect(filled(readBytes(loop.path, 0, 4 * MiB))).toBe(true);
    expect(filled(readBytes(roDisk.path, 0, 4 * MiB))).toBe(true);
  });

  it('stops before it starts when its signal has aborted', async () => {
    const d = filledLoop(4 * MiB);
    await expect(fastWipe(d, { signal: AbortSignal.abort(new Error('not now')) })).rejects.toThrow('not now');
    expect(filled(readBytes(d.path, 0, 4 * MiB))).toBe(true);
  });
});

describe('zeroing a range', () => {
  it('writes zeros over exactly the range asked, in pieces across a MiB boundary', async () => {
    const d = filledLoop(4 * MiB);
    await writeZeros(d, BigInt(MiB / 2), BigInt(MiB + 4096));
    const all = readBytes(d.path, 0, 4 * MiB);
    expect(filled(all.subarray(0, MiB / 2))).toBe(true);
    expect(zeros(all.subarray(MiB / 2, MiB / 2 + MiB + 4096))).toBe(true);
    expect(filled(all.subarray(MiB / 2 + MiB + 4096))).toBe(true);
  });

  it('uses BLKZEROOUT where the device takes it', async () => {
    const d = filledLoop(4 * MiB);
    expect(await wipeRange(d, BigInt(2 * MiB), BigInt(MiB))).toBe('zeroout');
    const all = readBytes(d.path, 0, 4 * MiB);
    expect(filled(all.subarray(0, 2 * MiB))).toBe(true);
    expect(zeros(all.subarray(2 * MiB, 3 * MiB))).toBe(true);
    expect(filled(all.subarray(3 * MiB))).toBe(true);
  });

  it('refuses a range past the end before writing anything', async () => {
    const d = filledLoop(4 * MiB);
    await expect(writeZeros(d, BigInt(3 * MiB), BigInt(2 * MiB))).rejects.toMatchObject({
      code: 'out-of-range',
    });
    expect(filled(readBytes(d.path, 0, 4 * MiB))).toBe(true);
  });
});
