// pipe2(2): a pipe whose ends close on exec, for a child's output that machined reads.
import { check } from './errno.js';
import { libc } from './libc.js';

export const O_CLOEXEC = 0o2000000;

const pipe2_ = libc.func('int pipe2(void *fds, int flags)');

/** pipe returns [read end, write end], both close-on-exec. */
export function pipe(): [number, number] {
  const fds = Buffer.alloc(8);
  check(pipe2_(fds, O_CLOEXEC), 'pipe2');
  return [fds.readInt32LE(0), fds.readInt32LE(4)];
}
