// The block devices room's error class: which device failed, and whether it is gone, busy, locked by
// another holder, unable to do what was asked, or showing sysfs contents that cannot be read.
import { isSysError } from '../../errno.js';

export type BlockErrorCode =
  /** the device (or its sysfs entry) does not exist: ENOENT, ENXIO, ENODEV */
  | 'not-found'
  /** the path is not a block device: ENOTBLK, or a regular file */
  | 'not-a-block-device'
  | 'permission-denied'
  /** the device, or the descriptor it was opened by, cannot be written */
  | 'read-only'
  /** in use: mounted, held open exclusively, partitions open (EBUSY) */
  | 'busy'
  /** another holder kept the whole-disk lock past the wait */
  | 'locked'
  /** the device or its driver does not do this: ENOTTY, EOPNOTSUPP, EINVAL from an ioctl */
  | 'unsupported'
  /** a range outside the device or not aligned to its sectors */
  | 'out-of-range'
  /** a sysfs attribute that does not say what the kernel documents */
  | 'malformed'
  | 'io';

export class BlockError extends Error {
  constructor(
    readonly code: BlockErrorCode,
    /** the device at fault, as it was named: `/dev/loop0`, `loop0p1`, or `fd 17` */
    readonly device: string,
    message: string,
    opts?: ErrorOptions,
  ) {
    super(`${device}: ${message}`, opts);
    this.name = 'BlockError';
  }
}

const is = (e: unknown, ...c: BlockErrorCode[]) => e instanceof BlockError && c.includes(e.code);
export const isBlockNotFound = (e: unknown) => is(e, 'not-found');
/** isBlockBusy: in use or locked by someone else, so worth another try later */
export const isBlockBusy = (e: unknown) => is(e, 'busy', 'locked');
export const isBlockUnsupported = (e: unknown) => is(e, 'unsupported');

const byErrno: ReadonlyArray<readonly [BlockErrorCode, readonly string[]]> = [
  ['not-found', ['ENOENT', 'ENXIO', 'ENODEV', 'ENOMEDIUM']],
  ['not-a-block-device', ['ENOTBLK']],
  ['permission-denied', ['EACCES', 'EPERM']],
  ['read-only', ['EROFS']],
  ['busy', ['EBUSY']],
  ['unsupported', ['ENOTTY', 'EOPNOTSUPP', 'ENOTSUP', 'EINVAL']],
];

/** codeOfErrno classifies an errno name (from a SysError or a Node fs error). */
export function codeOfErrno(errno: string | undefined): BlockErrorCode {
  for (const [code, names] of byErrno) if (errno && names.includes(errno)) return code;
  return 'io';
}

/** blockErrorOf names the device in a failed call's error; a BlockError passes through. */
export function blockErrorOf(device: string, what: string, cause: unknown): BlockError {
  if (cause instanceof BlockError) return cause;
  const errno = isSysError(cause) ? cause.code : (cause as NodeJS.ErrnoException | undefined)?.code;
  const why = cause instanceof Error ? cause.message : String(cause);
  return new BlockError(codeOfErrno(errno), device, `${what}: ${why}`, { cause });
}
