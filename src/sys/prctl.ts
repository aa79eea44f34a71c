// prctl(2): child subreaper, thread name and parent-death signal.
import { constants } from 'node:os';
import { check } from './errno.js';
import { libc } from './libc.js';

export const PR_SET_PDEATHSIG = 1;
export const PR_GET_PDEATHSIG = 2;
export const PR_SET_NAME = 15;
export const PR_GET_NAME = 16;
export const PR_SET_CHILD_SUBREAPER = 36;
export const PR_GET_CHILD_SUBREAPER = 37;

const prctlLong = libc.func(
  'int prctl(int option, unsigned long a2, unsigned long a3, unsigned long a4, unsigned long a5)',
);
const prctlStr = libc.func(
  'int prctl(int option, const char *a2, unsigned long a3, unsigned long a4, unsigned long a5)',
);
const prctlOut = libc.func(
  'int prctl(int option, _Out_ int *a2, unsigned long a3, unsigned long a4, unsigned long a5)',
);
const prctlName = libc.func(
  'int prctl(int option, _Out_ uint8_t *a2, unsigned long a3, unsigned long a4, unsigned long a5)',
);

/** setChildSubreaper makes orphans of our descendants come to us instead of to PID 1. */
export function setChildSubreaper(on: boolean): void {
  check(prctlLong(PR_SET_CHILD_SUBREAPER, on ? 1 : 0, 0, 0, 0), 'prctl', 'PR_SET_CHILD_SUBREAPER');
}

export function isChildSubreaper(): boolean {
  const out = [0];
  check(prctlOut(PR_GET_CHILD_SUBREAPER, out, 0, 0, 0), 'prctl', 'PR_GET_CHILD_SUBREAPER');
  return out[0] !== 0;
}

/** setName names the calling thread (15 bytes kept); the main thread's name is the process's comm. */
export function setName(name: string): void {
  check(prctlStr(PR_SET_NAME, name, 0, 0, 0), 'prctl', 'PR_SET_NAME', name);
}

export function getName(): string {
  const b = Buffer.alloc(16);
  check(prctlName(PR_GET_NAME, b, 0, 0, 0), 'prctl', 'PR_GET_NAME');
  return b.subarray(0, b.indexOf(0)).toString('utf8');
}

/** setParentDeathSignal asks the kernel to send `signal` when the parent thread exits (0 clears it). */
export function setParentDeathSignal(signal: NodeJS.Signals | 0): void {
  const no = signal === 0 ? 0 : constants.signals[signal];
  check(prctlLong(PR_SET_PDEATHSIG, no, 0, 0, 0), 'prctl', 'PR_SET_PDEATHSIG', signal);
}
