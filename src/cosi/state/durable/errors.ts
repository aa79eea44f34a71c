// Durable store errors: one class, a code per failure, and the file and offset when data on disk is bad.

export type DurableErrorCode =
  /** a file holds data that cannot be a torn tail: a bad checksum, frame or record before the end */
  | 'corrupt'
  /** a resource or spec value that the record codec cannot represent */
  | 'unencodable'
  /** a resource of another namespace was given to a store bound to one namespace */
  | 'foreign-namespace'
  /** the store was closed */
  | 'closed'
  /** a write or sync failed; after a failed sync the store refuses further writes */
  | 'io';

const BRAND = Symbol.for('cosi.durable.error');

export class DurableStoreError extends Error {
  readonly [BRAND] = true;

  constructor(
    readonly code: DurableErrorCode,
    message: string,
    /** the file at fault, for 'corrupt' and 'io' */
    readonly file?: string,
    /** byte offset in `file` of the bad frame or record, for 'corrupt' */
    readonly offset?: number,
    opts?: ErrorOptions,
  ) {
    super(message, opts);
    this.name = 'DurableStoreError';
  }
}

export const isDurableStoreError = (e: unknown): e is DurableStoreError =>
  typeof e === 'object' && e !== null && (e as Record<symbol, unknown>)[BRAND] === true;

/** errCorrupt names the file and offset, so an operator can inspect or cut the file by hand. */
export const errCorrupt = (file: string, offset: number, reason: string, cause?: unknown) =>
  new DurableStoreError(
    'corrupt',
    `corrupt durable store file ${file} at offset ${offset}: ${reason}`,
    file,
    offset,
    cause === undefined ? undefined : { cause },
  );

export const errUnencodable = (path: string, what: string) =>
  new DurableStoreError('unencodable', `cannot store ${what} at ${path}`);
