// Block device ioctls on an open descriptor: size, sector and I/O sizes, read-only, discard, zero-out,
// partition re-read and the optical-drive check. The numbers are the kernel's generic _IO/_IOR
// encodings (include/uapi/linux/fs.h, cdrom.h), which x86_64 and arm64 share; BLKGETSIZE64 and
// BLKBSZGET carry sizeof(size_t) = 8, true of both (LP64). Both are little-endian, as arch.ts admits.
import { SysError } from '../../errno.js';
import { ioctl, ioctlBuffer } from '../../ioctl-loop.js';
import { lastErrno, libc } from '../../libc.js';
import { BlockError, blockErrorOf } from './errors.js';
import { type DeviceRef, deviceLabel, fdOf } from './open.js';

export const BLKROGET = 0x125e;
export const BLKRRPART = 0x125f;
export const BLKSSZGET = 0x1268;
export const BLKDISCARD = 0x1277;
export const BLKIOMIN = 0x1278;
export const BLKIOOPT = 0x1279;
export const BLKPBSZGET = 0x127b;
export const BLKZEROOUT = 0x127f;
export const BLKBSZGET = 0x80081270;
export const BLKGETSIZE64 = 0x80081272;
export const CDROM_GET_CAPABILITY = 0x5331;
export const CDROM_DRIVE_STATUS = 0x5326;

/** The sector the kernel counts ranges and sizes in, whatever the device's logical block size. */
export const SECTOR = 512;

// a discard or zero-out of a large range takes the device's time: it runs on a libuv pool thread
const ioctlRange = libc.func('int ioctl(int fd, unsigned long request, const uint8_t *range)');

function call(d: DeviceRef, name: string, request: number, arg?: Buffer): number {
  try {
    return arg ? ioctlBuffer(fdOf(d), request, arg) : ioctl(fdOf(d), request);
  } catch (cause) {
    throw blockErrorOf(deviceLabel(d), name, cause);
  }
}

/** readUint asks for an unsigned int the kernel writes through the argument pointer. */
function readUint(d: DeviceRef, name: string, request: number): number {
  const b = Buffer.alloc(8); // room for a long, whatever the driver writes
  call(d, name, request, b);
  return b.readUInt32LE(0);
}

/** getSize is the device's size in bytes (BLKGETSIZE64). */
export function getSize(d: DeviceRef): bigint {
  const b = Buffer.alloc(8);
  call(d, 'BLKGETSIZE64', BLKGETSIZE64, b);
  return b.readBigUInt64LE(0);
}

/** getLogicalSectorSize is the smallest unit the device addresses (BLKSSZGET): 512 or 4096. */
export const getLogicalSectorSize = (d: DeviceRef): number => readUint(d, 'BLKSSZGET', BLKSSZGET);

/** getPhysicalSectorSize is the unit the device writes without read-modify-write (BLKPBSZGET). */
export const getPhysicalSectorSize = (d: DeviceRef): number => readUint(d, 'BLKPBSZGET', BLKPBSZGET);

/** getMinimumIOSize is the preferred minimum request size (BLKIOMIN). */
export const getMinimumIOSize = (d: DeviceRef): number => readUint(d, 'BLKIOMIN', BLKIOMIN);

/** getOptimalIOSize is the preferred request size for streaming I/O, 0 when the device names none. */
export const getOptimalIOSize = (d: DeviceRef): number => readUint(d, 'BLKIOOPT', BLKIOOPT);

const isPowerOfTwo = (n: number) => n > 0 && (n & (n - 1)) === 0;

/**
 * getIOSize picks the I/O size upstream's Disk resource shows: the optimal size, else the minimum,
 * else the block size, the first that is a power of two; 512 when none is.
 */
export function getIOSize(d: DeviceRef): number {
  for (const [name, request] of [
    ['BLKIOOPT', BLKIOOPT],
    ['BLKIOMIN', BLKIOMIN],
    ['BLKBSZGET', BLKBSZGET],
  ] as const) {
    try {
      const size = readUint(d, name, request);
      if (isPowerOfTwo(size)) return size;
    } catch {
      // a driver without this query: ask the next one
    }
  }
  return SECTOR;
}

/** isReadOnly tells whether the kernel refuses writes to the device (BLKROGET). */
export function isReadOnly(d: DeviceRef): boolean {
  const b = Buffer.alloc(8);
  call(d, 'BLKROGET', BLKROGET, b);
  return b.readInt32LE(0) !== 0;
}

/** isCdrom asks the CD-ROM layer for the drive's capabilities; any other device refuses (ENOTTY). */
export function isCdrom(d: DeviceRef): boolean {
  try {
    call(d, 'CDROM_GET_CAPABILITY', CDROM_GET_CAPABILITY);
    return true;
  } catch {
    return false;
  }
}

/** CDS_NO_DISC and CDS_TRAY_OPEN: what CDROM_DRIVE_STATUS answers for a drive with nothing to read */
const CDS_NO_DISC = 1;
const CDS_TRAY_OPEN = 2;

/**
 * isCdromNoMedia tells an optical drive with no disc in it (or its tray open), which the kernel still
 * sizes nominally; false for any other device and for a drive that cannot say.
 */
export function isCdromNoMedia(d: DeviceRef): boolean {
  try {
    const status = call(d, 'CDROM_DRIVE_STATUS', CDROM_DRIVE_STATUS);
    return status === CDS_NO_DISC || status === CDS_TRAY_OPEN;
  } catch {
    return false;
  }
}

/** checkRange refuses, before the kernel's bare EINVAL, a byte range off the sectors or past the end. */
export function checkRange(d: DeviceRef, start: bigint, length: bigint): void {
  const label = deviceLabel(d);
  if (start < 0n || length < 0n)
    throw new BlockError('out-of-range', label, `negative range (start ${start}, length ${length})`);
  if (start % BigInt(SECTOR) !== 0n || length % BigInt(SECTOR) !== 0n)
    throw new BlockError(
      'out-of-range',
      label,
      `range start ${start}, length ${length} is not a multiple of ${SECTOR} bytes`,
    );
  const size = getSize(d);
  if (start + length > size)
    throw new BlockError(
      'out-of-range',
      label,
      `range ${start}+${length} ends past the device's ${size} bytes`,
    );
}

function rangeArg(start: bigint, length: bigint): Buffer {
  const b = Buffer.alloc(16); // u64 range[2]: start, length
  b.writeBigUInt64LE(start, 0);
  b.writeBigUInt64LE(length, 8);
  return b;
}

/** rangeCall runs a range ioctl off the main thread; errno is the pool thread's, which koffi keeps. */
async function rangeCall(d: DeviceRef, name: string, request: number, start: bigint, length: bigint) {
  checkRange(d, start, length);
  const fd = fdOf(d);
  const range = rangeArg(start, length);
  await new Promise<void>((resolve, reject) => {
    ioctlRange.async(fd, request, range, (err: unknown, ret: number) => {
      if (err) return reject(blockErrorOf(deviceLabel(d), name, err));
      if (ret === -1) {
        const cause = new SysError('ioctl', lastErrno(), [fd, `0x${request.toString(16)}`]);
        return reject(blockErrorOf(deviceLabel(d), name, cause));
      }
      resolve();
    });
  });
}

/** discard tells the device a byte range is unused (BLKDISCARD, TRIM); what it then reads is up to it. */
export const discard = (d: DeviceRef, start: bigint, length: bigint): Promise<void> =>
  rangeCall(d, 'BLKDISCARD', BLKDISCARD, start, length);

/** zeroOut makes a byte range read as zeros (BLKZEROOUT), offloaded to the device where it can. */
export const zeroOut = (d: DeviceRef, start: bigint, length: bigint): Promise<void> =>
  rangeCall(d, 'BLKZEROOUT', BLKZEROOUT, start, length);

/**
 * rereadPartitions asks the kernel to read the partition table again (BLKRRPART): busy while any
 * partition is open, unsupported on a device that does not scan partitions (a loop without PARTSCAN).
 */
export function rereadPartitions(d: DeviceRef): void {
  call(d, 'BLKRRPART', BLKRRPART);
}
