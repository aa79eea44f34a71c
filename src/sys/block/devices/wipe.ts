// Wiping a device the way upstream's installer does before it partitions a disk (FastWipe): discard
// everything, then zero the first and last MiB, where partition tables, their backups and most
// filesystem and LUKS signatures live. Discard alone may leave the old bytes readable; the zeroing may not.
import { fsync, write } from 'node:fs';
import { promisify } from 'node:util';
import { F_GETFL, fcntl } from '../../fcntl.js';
import { BlockError, blockErrorOf, isBlockUnsupported } from './errors.js';
import { checkRange, discard, getSize, isReadOnly, zeroOut } from './ioctl.js';
import { type DeviceRef, deviceLabel, fdOf } from './open.js';

/** FAST_WIPE_RANGE is how much of each end of the device a fast wipe zeroes. */
export const FAST_WIPE_RANGE = 1n << 20n;

const CHUNK = 1 << 20;
const O_ACCMODE = 3;
const O_RDONLY = 0;

const writeAsync = promisify(write);
const fsyncAsync = promisify(fsync);

/** How a range was zeroed: by the kernel (BLKZEROOUT) or by writing zeros from here. */
export type ZeroMethod = 'zeroout' | 'write';

export interface ZeroedRange {
  readonly start: bigint;
  readonly length: bigint;
  readonly method: ZeroMethod;
}

export interface FastWipeResult {
  /** the device's size in bytes */
  readonly size: bigint;
  /** false when the device does not discard (EOPNOTSUPP), which is not an error */
  readonly discarded: boolean;
  readonly zeroed: readonly ZeroedRange[];
}

export interface WipeOptions {
  /** checked between steps; a step under way (one ioctl, one write) finishes first */
  readonly signal?: AbortSignal;
}

/** assertWritable refuses, before anything is touched, a descriptor or device that cannot be written. */
export function assertWritable(d: DeviceRef): void {
  let flags: number;
  try {
    flags = fcntl(fdOf(d), F_GETFL);
  } catch (cause) {
    throw blockErrorOf(deviceLabel(d), 'fcntl F_GETFL', cause);
  }
  if ((flags & O_ACCMODE) === O_RDONLY)
    throw new BlockError('read-only', deviceLabel(d), 'opened read-only; open it for writing to wipe it');
  if (isReadOnly(d))
    throw new BlockError('read-only', deviceLabel(d), 'the kernel marks the device read-only');
}

/** writeZeros zeroes a byte range with plain writes, a MiB at a time. */
export async function writeZeros(d: DeviceRef, start: bigint, length: bigint, opts: WipeOptions = {}) {
  checkRange(d, start, length);
  const zeros = Buffer.alloc(CHUNK);
  for (let at = start, end = start + length; at < end; ) {
    opts.signal?.throwIfAborted();
    const n = Number(end - at < BigInt(CHUNK) ? end - at : BigInt(CHUNK));
    let written: number;
    try {
      ({ bytesWritten: written } = await writeAsync(fdOf(d), zeros, 0, n, Number(at)));
    } catch (cause) {
      throw blockErrorOf(deviceLabel(d), `write at ${at}`, cause);
    }
    if (written === 0) throw new BlockError('io', deviceLabel(d), `write at ${at} wrote nothing`);
    at += BigInt(written);
  }
}

/** wipeRange zeroes a byte range, by BLKZEROOUT where the device takes it and by writing zeros where not. */
export async function wipeRange(
  d: DeviceRef,
  start: bigint,
  length: bigint,
  opts: WipeOptions = {},
): Promise<ZeroMethod> {
  try {
    await zeroOut(d, start, length);
    return 'zeroout';
  } catch (e) {
    if (!isBlockUnsupported(e)) throw e;
  }
  await writeZeros(d, start, length, opts);
  return 'write';
}

/** fastWipeRanges are the ranges a fast wipe zeroes: a small device whole, else its first and last MiB. */
export function fastWipeRanges(size: bigint): readonly (readonly [start: bigint, length: bigint])[] {
  if (size === 0n) return [];
  const head = size < FAST_WIPE_RANGE ? size : FAST_WIPE_RANGE;
  if (size === head) return [[0n, head]];
  // under 2 MiB the tail starts where the head ends, so nothing is zeroed twice and nothing is missed
  const tail = size - FAST_WIPE_RANGE > head ? size - FAST_WIPE_RANGE : head;
  return [
    [0n, head],
    [tail, size - tail],
  ];
}

/**
 * fastWipe discards the whole device (ignoring a device that does not discard), zeroes its first and
 * last MiB, and flushes the device's cache. Hold the whole-disk lock exclusively while it runs.
 */
export async function fastWipe(d: DeviceRef, opts: WipeOptions = {}): Promise<FastWipeResult> {
  opts.signal?.throwIfAborted();
  assertWritable(d);
  const size = getSize(d);
  let discarded = false;
  if (size > 0n) {
    try {
      await discard(d, 0n, size);
      discarded = true;
    } catch (e) {
      if (!isBlockUnsupported(e)) throw e;
    }
  }
  const zeroed: ZeroedRange[] = [];
  for (const [start, length] of fastWipeRanges(size)) {
    opts.signal?.throwIfAborted();
    zeroed.push({ start, length, method: await wipeRange(d, start, length, opts) });
  }
  try {
    await fsyncAsync(fdOf(d));
  } catch (cause) {
    throw blockErrorOf(deviceLabel(d), 'fsync', cause);
  }
  return { size, discarded, zeroed };
}
