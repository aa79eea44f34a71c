// The procfs room's error class: which kernel file failed, and whether it was missing or malformed.
export type ProcfsErrorCode = 'not-found' | 'malformed' | 'unreadable';

export class ProcfsError extends Error {
  constructor(
    readonly code: ProcfsErrorCode,
    /** the kernel file at fault, e.g. `/proc/meminfo` */
    readonly file: string,
    message: string,
    opts?: ErrorOptions,
  ) {
    super(`${file}: ${message}`, opts);
    this.name = 'ProcfsError';
  }
}

const is = (e: unknown, ...c: ProcfsErrorCode[]) => e instanceof ProcfsError && c.includes(e.code);
export const isProcfsNotFound = (e: unknown) => is(e, 'not-found');
export const isProcfsMalformed = (e: unknown) => is(e, 'malformed');

/** malformed is the error of a parser meeting a line it cannot read. */
export const malformed = (file: string, what: string, line: string): ProcfsError =>
  new ProcfsError('malformed', file, `${what}: ${JSON.stringify(line.slice(0, 120))}`);
