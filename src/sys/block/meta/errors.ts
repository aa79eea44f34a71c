// The META room's error class: what is wrong with a block, a tag or the partition, and where.

export type MetaErrorCode =
  /** a block or area is not the size its format has */
  | 'bad-length'
  /** magic1 or magic2 (or the syslinux head or tail) is not there */
  | 'bad-magic'
  /** the stored checksum does not match the block */
  | 'bad-checksum'
  /** a TLV claims more bytes than the data area has left */
  | 'tlv-overrun'
  /** a tag appears twice in one block */
  | 'duplicate-tag'
  /** a stored tag does not fit the u8 the API speaks */
  | 'wide-tag'
  /** a tag given to the API is not a u8, or is reserved */
  | 'bad-tag'
  /** values do not fit the data area */
  | 'too-large'
  /** neither Talos copy nor the syslinux area holds a valid block, and the partition is not blank */
  | 'unreadable'
  /** the partition cannot hold both copies and the syslinux area */
  | 'too-small'
  /** the path is neither a block device nor a regular file */
  | 'bad-path'
  /** a partition's parent disk has no device node */
  | 'parent-not-found'
  /** a lock was not taken within the bounded wait */
  | 'lock-timeout'
  /** a read or write moved fewer bytes than asked */
  | 'short-io';

export class MetaError extends Error {
  constructor(
    readonly code: MetaErrorCode,
    message: string,
    opts?: ErrorOptions,
  ) {
    super(message, opts);
    this.name = 'MetaError';
  }
}

const DAMAGE: readonly MetaErrorCode[] = [
  'bad-length',
  'bad-magic',
  'bad-checksum',
  'tlv-overrun',
  'duplicate-tag',
  'wide-tag',
];

export const isMetaError = (e: unknown, ...codes: MetaErrorCode[]): e is MetaError =>
  e instanceof MetaError && (codes.length === 0 || codes.includes(e.code));

/** isMetaDamage tells whether a decode failed because the stored bytes are damaged (the next copy may do). */
export const isMetaDamage = (e: unknown): e is MetaError => isMetaError(e, ...DAMAGE);

/** isMetaBadRequest tells whether the caller asked for something META cannot store. */
export const isMetaBadRequest = (e: unknown): e is MetaError => isMetaError(e, 'bad-tag', 'too-large');

/** hex32 spells a magic or word in errors: `0x5a4b3c2d`. */
export const hex32 = (n: number): string => `0x${n.toString(16).padStart(8, '0')}`;
