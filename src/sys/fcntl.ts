// fcntl(2) for descriptor flags: Node opens everything with FD_CLOEXEC, which an execve must sometimes undo.
import { check } from './errno.js';
import { libc } from './libc.js';

export const F_GETFD = 1;
export const F_SETFD = 2;
export const F_GETFL = 3;
export const F_SETFL = 4;
export const FD_CLOEXEC = 1;

// declared with a fixed third argument: on x86_64 an int passes the same way to a variadic callee
const fcntl_ = libc.func('int fcntl(int fd, int cmd, int arg)');

/** fcntl runs an integer-argument command and returns its result. */
export function fcntl(fd: number, cmd: number, arg = 0): number {
  return check(fcntl_(fd, cmd, arg), 'fcntl', fd, cmd);
}

/** setCloexec sets or clears FD_CLOEXEC on `fd`. */
export function setCloexec(fd: number, on: boolean): void {
  const flags = fcntl(fd, F_GETFD);
  fcntl(fd, F_SETFD, on ? flags | FD_CLOEXEC : flags & ~FD_CLOEXEC);
}

/** isCloexec tells whether `fd` closes on execve. */
export const isCloexec = (fd: number): boolean => (fcntl(fd, F_GETFD) & FD_CLOEXEC) !== 0;
