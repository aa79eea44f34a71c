// Block device descriptors: opened the way probing and writing tools open them, and named in errors.
// Every mechanism of this room takes a DeviceRef: a BlockFd (its errors then name the path) or a bare
// descriptor someone else opened (named `fd N`).
import { type BigIntStats, closeSync, constants, fstatSync, openSync } from 'node:fs';
import { BlockError, blockErrorOf } from './errors.js';

/** BlockFd is an open block device and the path it was opened by. */
export interface BlockFd {
  readonly fd: number;
  readonly path: string;
}

export type DeviceRef = number | BlockFd;

export const fdOf = (d: DeviceRef): number => (typeof d === 'number' ? d : d.fd);

/** deviceLabel is how errors name the device. */
export const deviceLabel = (d: DeviceRef): string => (typeof d === 'number' ? `fd ${d}` : d.path);

export interface OpenBlockOptions {
  /** open read-write (default read-only, enough to probe and to lock) */
  readonly write?: boolean;
  /** O_EXCL: refuse (busy) a device that is mounted or claimed by the kernel */
  readonly exclusive?: boolean;
}

/**
 * openBlockDevice opens `path` close-on-exec and non-blocking (an optical drive without media still
 * opens) and checks that it is a block device.
 */
export function openBlockDevice(path: string, opts: OpenBlockOptions = {}): BlockFd {
  const flags =
    (opts.write ? constants.O_RDWR : constants.O_RDONLY) |
    constants.O_NONBLOCK |
    (opts.exclusive ? constants.O_EXCL : 0);
  let fd: number;
  try {
    fd = openSync(path, flags);
  } catch (cause) {
    throw blockErrorOf(path, opts.write ? 'open for writing' : 'open', cause);
  }
  try {
    if (!fstatSync(fd).isBlockDevice())
      throw new BlockError('not-a-block-device', path, 'not a block device');
  } catch (e) {
    closeSync(fd);
    throw blockErrorOf(path, 'fstat', e);
  }
  return { fd, path };
}

/** closeBlockDevice closes a descriptor openBlockDevice made; its flock, if any, goes with it. */
export function closeBlockDevice(d: BlockFd): void {
  closeSync(d.fd);
}

export interface DeviceNumber {
  readonly major: number;
  readonly minor: number;
}

/** decodeDevT splits a dev_t as glibc's major()/minor() do (12+20 bits in the 64-bit layout). */
export function decodeDevT(dev: bigint): DeviceNumber {
  const major = ((dev >> 8n) & 0xfffn) | ((dev >> 32n) & ~0xfffn);
  const minor = (dev & 0xffn) | ((dev >> 12n) & ~0xffn);
  return { major: Number(major & 0xffffffffn), minor: Number(minor & 0xffffffffn) };
}

/** deviceNumber is the major:minor of an open block device. */
export function deviceNumber(d: DeviceRef): DeviceNumber {
  let st: BigIntStats;
  try {
    st = fstatSync(fdOf(d), { bigint: true });
  } catch (cause) {
    throw blockErrorOf(deviceLabel(d), 'fstat', cause);
  }
  if (!st.isBlockDevice()) throw new BlockError('not-a-block-device', deviceLabel(d), 'not a block device');
  return decodeDevT(st.rdev);
}
