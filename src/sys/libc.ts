// libc loaded once through koffi; every raw call in Keel is declared on top of this handle.
import koffi from 'koffi';

/** libc is the process's C library; loading it twice would only cost memory, but one handle keeps one place. */
export const libc = koffi.load('libc.so.6');

/** errno reads the thread's errno right after a call (koffi saves it per call). */
export const lastErrno = (): number => koffi.errno();

export { koffi };

/** rawSyscall is syscall(2) for calls glibc does not wrap (new mount API, finit_module, reboot with an arg). */
export const rawSyscall = libc.func('long syscall(long number, ...)');

/** x86_64 syscall numbers used through rawSyscall. */
export const SYS = {
  reboot: 169,
  finit_module: 313,
  open_tree: 428,
  move_mount: 429,
  fsopen: 430,
  fsconfig: 431,
  fsmount: 432,
  fspick: 433,
} as const;

/** AT_FDCWD makes *at() calls resolve relative paths from the working directory. */
export const AT_FDCWD = -100;
