// setgroups(2)/setgid(2)/setuid(2): switching a process to a service's identity after it dropped capabilities.
import { check } from './errno.js';
import { libc } from './libc.js';

const setgroups_ = libc.func('int setgroups(size_t size, const uint32_t *list)');
const setgid_ = libc.func('int setgid(uint32_t gid)');
const setuid_ = libc.func('int setuid(uint32_t uid)');

/** setgroups replaces the supplementary groups (an empty list clears them). */
export function setgroups(groups: readonly number[]): void {
  const list = groups.length > 0 ? Uint32Array.from(groups) : null;
  check(setgroups_(groups.length, list), 'setgroups', groups.join(','));
}

export function setgid(gid: number): void {
  check(setgid_(gid), 'setgid', String(gid));
}

export function setuid(uid: number): void {
  check(setuid_(uid), 'setuid', String(uid));
}

/** switchIdentity drops supplementary groups, then gid, then uid: the order in which each step is still allowed. */
export function switchIdentity({ uid, gid }: { uid?: number; gid?: number }): void {
  if (uid === undefined && gid === undefined) return;
  setgroups([]);
  if (gid !== undefined) setgid(gid);
  if (uid !== undefined) setuid(uid);
}
