// libc loaded once through koffi; every raw call in Keel is declared on top of this handle.
import koffi from 'koffi';
import { ARCH } from './arch.js';

/** libc is the process's C library; loading it twice would only cost memory, but one handle keeps one place. */
export const libc = koffi.load('libc.so.6');

/** errno reads the thread's errno right after a call (koffi saves it per call). */
export const lastErrno = (): number => koffi.errno();

export { koffi };

/** rawSyscall is syscall(2) for calls glibc does not wrap (new mount API, finit_module, reboot with an arg). */
export const rawSyscall = libc.func('long syscall(long number, ...)');

/** syscall numbers used through rawSyscall, from this architecture's table. */
export const SYS = ARCH.sys;

/** AT_FDCWD makes *at() calls resolve relative paths from the working directory. */
export const AT_FDCWD = -100;
