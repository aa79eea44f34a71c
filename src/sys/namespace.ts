// setns(2)/unshare(2): move the calling thread between namespaces. From Node's main thread this decides
// which network namespace the sockets (and the children) it makes from then on belong to.
import { closeSync, openSync } from 'node:fs';
import { check } from './errno.js';
import { libc } from './libc.js';

export const CLONE_NEWNET = 0x40000000;
export const CLONE_NEWUTS = 0x04000000;

const setns_ = libc.func('int setns(int fd, int nstype)');
const unshare_ = libc.func('int unshare(int flags)');

/** setnsPath joins the namespace a /proc/…/ns/* or /run/netns/* path names. */
export function setnsPath(path: string, nstype = 0): void {
  const fd = openSync(path, 'r');
  try {
    check(setns_(fd, nstype), 'setns', path);
  } finally {
    closeSync(fd);
  }
}

/** setnsFd joins the namespace an open namespace descriptor refers to (one kept to come back to). */
export function setnsFd(fd: number, nstype = 0): void {
  check(setns_(fd, nstype), 'setns', fd);
}

/** unshare moves the calling thread into fresh namespaces of the given kinds. */
export function unshare(flags: number): void {
  check(unshare_(flags), 'unshare', flags);
}
