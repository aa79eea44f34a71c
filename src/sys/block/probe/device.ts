// Probing a device node or an image file: opened read-only, advised for random access as upstream
// does, sized by BLKGETSIZE64 (a block device) or fstat (a file), and read in small aligned blocks.
import { closeSync, fstatSync, openSync, readSync, type Stats } from 'node:fs';
import { endianness } from 'node:os';
import { check } from '../../errno.js';
import { libc } from '../../libc.js';
import { probe } from './chain.js';
import { ProbeError, probeErrorOf } from './errors.js';
import type { ProbeResult, ReadAt } from './prober.js';

// posix_fadvise returns the error number instead of setting errno; off_t is 64-bit on every LP64 ABI
export const posixFadvise = libc.func('int posix_fadvise(int fd, int64_t offset, int64_t len, int advice)');
const ioctlOut = libc.func('int ioctl(int fd, unsigned long request, _Inout_ uint8_t *arg)');

/** POSIX_FADV_* advice values: the generic ones, shared by x86_64 and arm64 (s390 alone differs). */
export const POSIX_FADV_RANDOM = 1;
export const POSIX_FADV_DONTNEED = 4;

/** BLKGETSIZE64 is _IOR(0x12, 114, size_t): the generic ioctl encoding, the same number on x86_64 and arm64. */
export const BLKGETSIZE64 = 0x80081272;

/** Reads are whole 4 KiB blocks: a page, and a multiple of every logical sector size in use. */
export const READ_ALIGN = 4096;

/** blockDeviceSize asks the kernel for a block device's size in bytes. */
export function blockDeviceSize(fd: number): number {
  const out = Buffer.alloc(8);
  check(ioctlOut(fd, BLKGETSIZE64, out), 'ioctl', fd, 'BLKGETSIZE64');
  const size = endianness() === 'LE' ? out.readBigUInt64LE(0) : out.readBigUInt64BE(0);
  if (size > BigInt(Number.MAX_SAFE_INTEGER)) throw new RangeError(`block device size ${size} exceeds 2^53`);
  return Number(size);
}

/** alignedReadAt serves any range from whole aligned blocks of `fd`, never past `size`. */
export function alignedReadAt(fd: number, size: number, name: string): ReadAt {
  return (offset, length) => {
    const start = offset - (offset % READ_ALIGN);
    const end = Math.min(size, Math.ceil((offset + length) / READ_ALIGN) * READ_ALIGN);
    if (end <= offset) return Buffer.alloc(0);
    const buf = Buffer.allocUnsafe(end - start);
    let got = 0;
    while (got < buf.length) {
      let n: number;
      try {
        n = readSync(fd, buf, got, buf.length - got, start + got);
      } catch (e) {
        throw probeErrorOf(name, `read of ${buf.length - got} bytes at ${start + got}`, e);
      }
      if (n === 0) break; // the device is shorter than it said; the prober sees a short read
      got += n;
    }
    const from = offset - start;
    return buf.subarray(Math.min(from, got), Math.min(from + length, got));
  };
}

export interface ProbeFdOptions {
  /** what errors name: the path the descriptor was opened from; "fd N" by default */
  readonly name?: string;
}

/** probeFd probes an open descriptor of `size` bytes; the caller keeps ownership (and any lock) of it. */
export function probeFd(fd: number, size: number, opts: ProbeFdOptions = {}): ProbeResult | undefined {
  const name = opts.name ?? `fd ${fd}`;
  if (!Number.isSafeInteger(fd) || fd < 0)
    throw new ProbeError('invalid-argument', name, `bad descriptor ${fd}`);
  if (!Number.isSafeInteger(size) || size < 0) {
    throw new ProbeError('invalid-argument', name, `device size ${size} is not a byte count`);
  }
  // advice only: a descriptor that cannot take it (a pipe) fails at the first read instead
  posixFadvise(fd, 0, 0, POSIX_FADV_RANDOM);
  return probe(alignedReadAt(fd, size, name), size);
}

const kindOf = (st: Stats): string =>
  st.isDirectory()
    ? 'a directory'
    : st.isCharacterDevice()
      ? 'a character device'
      : st.isFIFO()
        ? 'a FIFO'
        : st.isSocket()
          ? 'a socket'
          : 'of another file type';

/** probePath opens `path` read-only (a block device or an image file) and probes it. */
export function probePath(path: string): ProbeResult | undefined {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (e) {
    throw probeErrorOf(path, 'open', e);
  }
  try {
    let st: Stats;
    try {
      st = fstatSync(fd);
    } catch (e) {
      throw probeErrorOf(path, 'fstat', e);
    }
    let size: number;
    if (st.isBlockDevice()) {
      try {
        size = blockDeviceSize(fd);
      } catch (e) {
        throw probeErrorOf(path, 'device size', e);
      }
      // drop clean cached pages first: a writer that used O_DIRECT (cryptsetup) leaves them stale
      posixFadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
    } else if (st.isFile()) {
      size = st.size;
    } else {
      throw new ProbeError(
        'unsupported-file-type',
        path,
        `is ${kindOf(st)}, not a block device or a regular file`,
      );
    }
    return probeFd(fd, size, { name: path });
  } finally {
    closeSync(fd);
  }
}
