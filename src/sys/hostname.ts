// sethostname(2)/setdomainname(2); reading them back is os.hostname() and /proc/sys/kernel/domainname.
import { check } from './errno.js';
import { libc } from './libc.js';

const sethostname_ = libc.func('int sethostname(const char *name, size_t len)');
const setdomainname_ = libc.func('int setdomainname(const char *name, size_t len)');

/** sethostname sets the UTS namespace's hostname (at most 64 bytes). */
export function sethostname(name: string): void {
  check(sethostname_(name, Buffer.byteLength(name)), 'sethostname', name);
}

/** setdomainname sets the UTS namespace's NIS domain name. */
export function setdomainname(name: string): void {
  check(setdomainname_(name, Buffer.byteLength(name)), 'setdomainname', name);
}
