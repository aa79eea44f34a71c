// sync(2)/syncfs(2); syncBounded runs sync on a worker thread so a hung disk cannot stall PID 1 forever.
import { check } from './errno.js';
import { libc } from './libc.js';

const sync_ = libc.func('void sync(void)');
const syncfs_ = libc.func('int syncfs(int fd)');

/** sync flushes every filesystem; it may block for as long as the slowest device. */
export const sync = (): void => {
  sync_();
};

/** syncfs flushes the filesystem holding `fd`. */
export function syncfs(fd: number): void {
  check(syncfs_(fd), 'syncfs', fd);
}

/** syncBounded resolves true when sync finished, false when `timeoutMs` passed first (sync keeps running). */
export function syncBounded(timeoutMs: number): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), timeoutMs);
    sync_.async(() => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}
