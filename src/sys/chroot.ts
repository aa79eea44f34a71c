// chroot(2): changes the root directory of the whole process (every thread).
import { check } from './errno.js';
import { libc } from './libc.js';

const chroot_ = libc.func('int chroot(const char *path)');

/** chroot makes `path` the process's root; pair it with process.chdir('/'). */
export function chroot(path: string): void {
  check(chroot_(path), 'chroot', path);
}
