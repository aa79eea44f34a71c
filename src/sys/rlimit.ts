// prlimit(2): get and set resource limits of this process (or another, by pid).
import { check } from './errno.js';
import { libc } from './libc.js';

/** RLIMIT_* resource numbers. */
export const RLIMIT = {
  CPU: 0,
  FSIZE: 1,
  DATA: 2,
  STACK: 3,
  CORE: 4,
  RSS: 5,
  NPROC: 6,
  NOFILE: 7,
  MEMLOCK: 8,
  AS: 9,
} as const;
export type RlimitResource = keyof typeof RLIMIT;

/** RLIM_INFINITY: no limit. */
export const RLIM_INFINITY = 0xffffffffffffffffn;

export interface Rlimit {
  soft: bigint;
  hard: bigint;
}

const prlimit_ = libc.func('int prlimit(int pid, int resource, const uint8_t *nlim, _Out_ uint8_t *olim)');

const encode = (l: Rlimit) => {
  const b = Buffer.alloc(16);
  b.writeBigUInt64LE(l.soft, 0);
  b.writeBigUInt64LE(l.hard, 8);
  return b;
};

/** getrlimit reads a limit of `pid` (0: this process). */
export function getrlimit(resource: RlimitResource, pid = 0): Rlimit {
  const old = Buffer.alloc(16);
  check(prlimit_(pid, RLIMIT[resource], null, old), 'prlimit', resource, pid);
  return { soft: old.readBigUInt64LE(0), hard: old.readBigUInt64LE(8) };
}

/** setrlimit sets a limit of `pid` (0: this process); raising the hard limit needs CAP_SYS_RESOURCE. */
export function setrlimit(resource: RlimitResource, limit: Rlimit, pid = 0): void {
  check(prlimit_(pid, RLIMIT[resource], encode(limit), null), 'prlimit', resource, pid);
}
