// SysError: a failed system call, with the errno name as its code and the call spelled out in the message.
import { getSystemErrorMap } from 'node:util';
import { koffi, lastErrno } from './libc.js';

const byNumber = new Map<number, string>();
for (const [name, no] of Object.entries(koffi.os.errno)) if (!byNumber.has(no)) byNumber.set(no, name);
const messages = getSystemErrorMap();

/** errnoName maps a number to its symbolic name ('EPERM'), or 'E<n>' when unknown. */
export const errnoName = (errno: number): string => byNumber.get(errno) ?? `E${errno}`;

/** errnoNumber maps a symbolic name to its number, or undefined. */
export const errnoNumber = (name: string): number | undefined => koffi.os.errno[name];

/** errnoMessage is the C library's wording, lowercase ('operation not permitted'). */
export const errnoMessage = (errno: number): string => messages.get(-errno)?.[1] ?? `errno ${errno}`;

/** SysError carries the failed call: `mount("proc", "/proc"): EPERM (operation not permitted)`. */
export class SysError extends Error {
  override readonly name = 'SysError';
  /** symbolic errno, e.g. 'EPERM' */
  readonly code: string;

  constructor(
    readonly syscall: string,
    readonly errno: number,
    /** the paths or arguments that identify the call, printed quoted when strings */
    readonly args: readonly unknown[] = [],
  ) {
    const code = errnoName(errno);
    const shown = args.map((a) => (typeof a === 'string' ? JSON.stringify(a) : String(a))).join(', ');
    super(`${syscall}(${shown}): ${code} (${errnoMessage(errno)})`);
    this.code = code;
  }

  /** path is the first string argument, the usual subject of the call. */
  get path(): string | undefined {
    return this.args.find((a): a is string => typeof a === 'string');
  }
}

export const isSysError = (e: unknown, ...codes: string[]): e is SysError =>
  e instanceof SysError && (codes.length === 0 || codes.includes(e.code));

/** check turns a -1 return into a SysError read from errno; other values pass through. */
export function check<T extends number | bigint>(ret: T, syscall: string, ...args: unknown[]): T {
  if (Number(ret) === -1) throw new SysError(syscall, lastErrno(), args);
  return ret;
}
