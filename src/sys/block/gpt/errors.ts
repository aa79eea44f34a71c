// GptError: what is wrong with a partition table, a request to change one, or the kernel's view of it.

export type GptErrorCode =
  /** a GUID string that does not parse */
  | 'invalid-guid'
  /** a partition name longer than 36 UTF-16 code units, or with a NUL inside */
  | 'name-too-long'
  /** a size, sector size, number or option that makes no sense */
  | 'invalid-argument'
  /** the disk is too small for the two headers, the two arrays and one partition */
  | 'disk-too-small'
  /** no free extent is large enough for the partition asked for */
  | 'no-space'
  /** every entry of the array is in use */
  | 'no-free-entry'
  /** the partition number is taken already (add) or not in use (delete, grow) */
  | 'partition-exists'
  | 'partition-not-found'
  /** a header fails its checks: signature, sizes, self-pointer, usable range */
  | 'bad-header'
  /** a header's or an array's CRC32 does not match */
  | 'bad-crc'
  /** two partitions share sectors */
  | 'overlap'
  /** a partition lies (partly) outside the usable range, or ends before it starts */
  | 'out-of-range'
  /** neither the primary nor the backup table is valid */
  | 'no-table'
  /** a read or write of the disk came up short */
  | 'io'
  /** the table was written, but the kernel could not be made to use it */
  | 'kernel-sync';

export class GptError extends Error {
  override readonly name = 'GptError';
  constructor(
    readonly code: GptErrorCode,
    message: string,
    opts?: ErrorOptions,
  ) {
    super(message, opts);
  }
}

export const isGptError = (e: unknown, ...codes: GptErrorCode[]): e is GptError =>
  e instanceof GptError && (codes.length === 0 || codes.includes(e.code));

/** isGptCorrupt says the bytes on the disk are not a usable table (as opposed to a bad request). */
export const isGptCorrupt = (e: unknown): e is GptError =>
  isGptError(e, 'bad-header', 'bad-crc', 'overlap', 'out-of-range', 'no-table');
