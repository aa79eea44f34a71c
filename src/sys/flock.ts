// flock(2): whole-file advisory locks. Only non-blocking calls: a blocking flock would stall the event loop.
import { setTimeout as delay } from 'node:timers/promises';
import { check, isSysError } from './errno.js';
import { libc } from './libc.js';

export const LOCK_SH = 1;
export const LOCK_EX = 2;
export const LOCK_NB = 4;
export const LOCK_UN = 8;

const flock_ = libc.func('int flock(int fd, int op)');

export type LockMode = 'shared' | 'exclusive';

/** tryFlock takes the lock or returns false when another holder has it (EWOULDBLOCK). */
export function tryFlock(fd: number, mode: LockMode): boolean {
  try {
    check(flock_(fd, (mode === 'shared' ? LOCK_SH : LOCK_EX) | LOCK_NB), 'flock', fd, mode);
    return true;
  } catch (e) {
    if (isSysError(e, 'EAGAIN', 'EWOULDBLOCK')) return false;
    throw e;
  }
}

/** flock waits for the lock, retrying with a capped backoff until it is taken or the signal aborts. */
export async function flock(fd: number, mode: LockMode, opts: { signal?: AbortSignal } = {}): Promise<void> {
  for (let wait = 5; !tryFlock(fd, mode); wait = Math.min(wait * 2, 100)) {
    opts.signal?.throwIfAborted();
    // timers/promises rejects with a generic AbortError; the caller's reason says more
    await delay(wait, undefined, opts.signal ? { signal: opts.signal } : {}).catch((e: unknown) => {
      opts.signal?.throwIfAborted();
      throw e;
    });
  }
}

/** funlock releases a lock held on `fd`. */
export function funlock(fd: number): void {
  check(flock_(fd, LOCK_UN), 'flock', fd, 'unlock');
}
