// finit_module(2): loads a kernel module from an open file (syscall 313 on x86_64; glibc has no wrapper).
import { check } from './errno.js';
import { rawSyscall, SYS } from './libc.js';

/** MODULE_INIT_* flags. */
export const MODULE_INIT = { IGNORE_MODVERSIONS: 1, IGNORE_VERMAGIC: 2, COMPRESSED_FILE: 4 } as const;

/** finitModule loads the module in `fd` with the given parameter string ('' for none). */
export function finitModule(fd: number, params = '', flags = 0): void {
  check(Number(rawSyscall(SYS.finit_module, 'int', fd, 'str', params, 'int', flags)), 'finit_module', fd);
}
