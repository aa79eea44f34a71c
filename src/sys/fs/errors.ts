// The fs room's error class: which path failed and why, so the API can answer NOT_FOUND or INVALID_ARGUMENT.
export type FsErrorCode =
  | 'not-found'
  | 'not-a-file'
  | 'not-absolute'
  | 'bad-path'
  | 'permission-denied'
  | 'io';

export class FsError extends Error {
  constructor(
    readonly code: FsErrorCode,
    readonly path: string,
    message: string,
    opts?: ErrorOptions,
  ) {
    super(`${path}: ${message}`, opts);
    this.name = 'FsError';
  }
}

const is = (e: unknown, ...c: FsErrorCode[]) => e instanceof FsError && c.includes(e.code);
export const isFsNotFound = (e: unknown) => is(e, 'not-found');
export const isFsBadRequest = (e: unknown) => is(e, 'not-a-file', 'not-absolute', 'bad-path');

/** fsErrorOf turns an errno error about `path` into an FsError (an FsError passes through). */
export function fsErrorOf(path: string, cause: unknown): FsError {
  if (cause instanceof FsError) return cause;
  const errno = (cause as NodeJS.ErrnoException | undefined)?.code;
  // no system call takes such a path: say so in the request's terms, not Node's
  if (path.includes('\0')) return new FsError('bad-path', path, 'contains a NUL byte', { cause });
  if (errno === 'ENAMETOOLONG') return new FsError('bad-path', path, 'file name too long', { cause });
  const why = cause instanceof Error ? cause.message : String(cause);
  const code: FsErrorCode =
    errno === 'ENOENT' || errno === 'ENOTDIR'
      ? 'not-found'
      : errno === 'EACCES' || errno === 'EPERM'
        ? 'permission-denied'
        : 'io';
  return new FsError(code, path, why, { cause });
}
