// Linux capabilities: capget/capset (raw syscalls, header v3), the bounding and ambient sets through
// prctl(2), no_new_privs, and the kernel's capability names with their numbers.
import { readFileSync } from 'node:fs';
import { check, SysError } from './errno.js';
import { libc, rawSyscall } from './libc.js';

/** The capability numbers of include/uapi/linux/capability.h, in order (CAP_CHOWN=0 … CAP_CHECKPOINT_RESTORE=40). */
export const CAPABILITIES = [
  'CAP_CHOWN',
  'CAP_DAC_OVERRIDE',
  'CAP_DAC_READ_SEARCH',
  'CAP_FOWNER',
  'CAP_FSETID',
  'CAP_KILL',
  'CAP_SETGID',
  'CAP_SETUID',
  'CAP_SETPCAP',
  'CAP_LINUX_IMMUTABLE',
  'CAP_NET_BIND_SERVICE',
  'CAP_NET_BROADCAST',
  'CAP_NET_ADMIN',
  'CAP_NET_RAW',
  'CAP_IPC_LOCK',
  'CAP_IPC_OWNER',
  'CAP_SYS_MODULE',
  'CAP_SYS_RAWIO',
  'CAP_SYS_CHROOT',
  'CAP_SYS_PTRACE',
  'CAP_SYS_PACCT',
  'CAP_SYS_ADMIN',
  'CAP_SYS_BOOT',
  'CAP_SYS_NICE',
  'CAP_SYS_RESOURCE',
  'CAP_SYS_TIME',
  'CAP_SYS_TTY_CONFIG',
  'CAP_MKNOD',
  'CAP_LEASE',
  'CAP_AUDIT_WRITE',
  'CAP_AUDIT_CONTROL',
  'CAP_SETFCAP',
  'CAP_MAC_OVERRIDE',
  'CAP_MAC_ADMIN',
  'CAP_SYSLOG',
  'CAP_WAKE_ALARM',
  'CAP_BLOCK_SUSPEND',
  'CAP_AUDIT_READ',
  'CAP_PERFMON',
  'CAP_BPF',
  'CAP_CHECKPOINT_RESTORE',
] as const;

export type CapabilityName = (typeof CAPABILITIES)[number];

const byName = new Map<string, number>(CAPABILITIES.map((n, i) => [n, i]));

/** capabilityNumber maps 'CAP_SYS_ADMIN' (or 'sys_admin', as upstream configs write it) to 21. */
export function capabilityNumber(name: string): number | undefined {
  const upper = name.toUpperCase();
  return byName.get(upper.startsWith('CAP_') ? upper : `CAP_${upper}`);
}

/** capabilityName maps a number back to its name, or undefined past the table. */
export const capabilityName = (no: number): CapabilityName | undefined => CAPABILITIES[no];

/** CapabilityError: a name that is not a Linux capability. */
export class CapabilityError extends Error {
  override readonly name = 'CapabilityError';
  constructor(readonly capability: string) {
    super(`unknown capability ${JSON.stringify(capability)}`);
  }
}

/** capabilityNumbers resolves every name, throwing a CapabilityError that names the first unknown one. */
export function capabilityNumbers(names: readonly string[]): number[] {
  return names.map((n) => {
    const no = capabilityNumber(n);
    if (no === undefined) throw new CapabilityError(n);
    return no;
  });
}

/** _LINUX_CAPABILITY_VERSION_3: 64-bit sets, passed as two 32-bit data structs. */
export const LINUX_CAPABILITY_VERSION_3 = 0x20080522;
/** sizeof(struct __user_cap_header_struct): u32 version, int pid */
export const CAP_HEADER_SIZE = 8;
/** sizeof(struct __user_cap_data_struct): u32 effective, permitted, inheritable */
export const CAP_DATA_SIZE = 12;

/** CapSets are the three per-thread sets capget/capset work on, as 64-bit masks (bit n = capability n). */
export interface CapSets {
  readonly effective: bigint;
  readonly permitted: bigint;
  readonly inheritable: bigint;
}

/** encodeCapHeader lays out the header for `pid` (0: the calling thread). */
export function encodeCapHeader(pid = 0): Buffer {
  const b = Buffer.alloc(CAP_HEADER_SIZE);
  b.writeUInt32LE(LINUX_CAPABILITY_VERSION_3, 0);
  b.writeInt32LE(pid, 4);
  return b;
}

/** encodeCapData lays out two data structs: [0] holds bits 0–31, [1] bits 32–63. */
export function encodeCapData(s: CapSets): Buffer {
  const b = Buffer.alloc(2 * CAP_DATA_SIZE);
  for (const i of [0, 1]) {
    const shift = BigInt(32 * i);
    const word = (v: bigint) => Number((v >> shift) & 0xffff_ffffn);
    b.writeUInt32LE(word(s.effective), i * CAP_DATA_SIZE);
    b.writeUInt32LE(word(s.permitted), i * CAP_DATA_SIZE + 4);
    b.writeUInt32LE(word(s.inheritable), i * CAP_DATA_SIZE + 8);
  }
  return b;
}

export function decodeCapData(b: Buffer): CapSets {
  const at = (off: number) =>
    BigInt(b.readUInt32LE(off)) | (BigInt(b.readUInt32LE(CAP_DATA_SIZE + off)) << 32n);
  return { effective: at(0), permitted: at(4), inheritable: at(8) };
}

/** x86_64 syscall numbers (glibc's capget/capset wrappers exist, but the raw calls keep the layout ours). */
const SYS_capget = 125;
const SYS_capset = 126;

/** capget reads the calling thread's effective, permitted and inheritable sets. */
export function capget(): CapSets {
  const data = Buffer.alloc(2 * CAP_DATA_SIZE);
  check(Number(rawSyscall(SYS_capget, 'void *', encodeCapHeader(), 'void *', data)), 'capget');
  return decodeCapData(data);
}

/** capset replaces the calling thread's sets; raising beyond permitted fails with EPERM. */
export function capset(s: CapSets): void {
  check(Number(rawSyscall(SYS_capset, 'void *', encodeCapHeader(), 'void *', encodeCapData(s))), 'capset');
}

export const PR_CAPBSET_READ = 23;
export const PR_CAPBSET_DROP = 24;
export const PR_SET_NO_NEW_PRIVS = 38;
export const PR_GET_NO_NEW_PRIVS = 39;
export const PR_CAP_AMBIENT = 47;
export const PR_CAP_AMBIENT_IS_SET = 1;
export const PR_CAP_AMBIENT_RAISE = 2;
export const PR_CAP_AMBIENT_LOWER = 3;
export const PR_CAP_AMBIENT_CLEAR_ALL = 4;

const prctl = libc.func(
  'int prctl(int option, unsigned long a2, unsigned long a3, unsigned long a4, unsigned long a5)',
);

/** lastCap is the highest capability the running kernel knows. */
export function lastCap(): number {
  return Number.parseInt(readFileSync('/proc/sys/kernel/cap_last_cap', 'utf8'), 10);
}

/** inBoundingSet tells whether capability `no` is still in the bounding set. */
export function inBoundingSet(no: number): boolean {
  return check(prctl(PR_CAPBSET_READ, no, 0, 0, 0), 'prctl', 'PR_CAPBSET_READ', no) === 1;
}

/** dropBounding removes `no` from the bounding set for good (needs CAP_SETPCAP). */
export function dropBounding(no: number): void {
  check(prctl(PR_CAPBSET_DROP, no, 0, 0, 0), 'prctl', 'PR_CAPBSET_DROP', capabilityName(no) ?? no);
}

/** raiseAmbient adds `no` to the ambient set; it must be permitted and inheritable already. */
export function raiseAmbient(no: number): void {
  check(
    prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_RAISE, no, 0, 0),
    'prctl',
    'PR_CAP_AMBIENT_RAISE',
    capabilityName(no) ?? no,
  );
}

/** lowerAmbient removes `no` from the ambient set. */
export function lowerAmbient(no: number): void {
  check(
    prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_LOWER, no, 0, 0),
    'prctl',
    'PR_CAP_AMBIENT_LOWER',
    capabilityName(no) ?? no,
  );
}

/** clearAmbient empties the ambient set. */
export function clearAmbient(): void {
  check(prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0), 'prctl', 'PR_CAP_AMBIENT_CLEAR_ALL');
}

/** setNoNewPrivs makes execve never grant privileges again (setuid bits and file capabilities ignored). */
export function setNoNewPrivs(): void {
  check(prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0), 'prctl', 'PR_SET_NO_NEW_PRIVS');
}

export function noNewPrivs(): boolean {
  return check(prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0), 'prctl', 'PR_GET_NO_NEW_PRIVS') === 1;
}

/**
 * dropCapabilities removes the numbered capabilities from the bounding, ambient, inheritable,
 * permitted and effective sets of the calling thread. The bounding set goes first, since dropping
 * from it needs CAP_SETPCAP, which may be among those dropped. Capabilities newer than the running
 * kernel are absent already and skipped.
 */
export function dropCapabilities(nos: readonly number[]): void {
  const last = lastCap();
  const known = nos.filter((n) => n <= last);
  for (const n of known) {
    try {
      dropBounding(n);
    } catch (e) {
      if (e instanceof SysError && e.code === 'EPERM')
        throw new Error(
          `dropping ${capabilityName(n)} from the bounding set needs CAP_SETPCAP, which this process lacks`,
          { cause: e },
        );
      throw e;
    }
  }
  for (const n of known) lowerAmbient(n);
  const mask = known.reduce((m, n) => m | (1n << BigInt(n)), 0n);
  const cur = capget();
  capset({
    effective: cur.effective & ~mask,
    permitted: cur.permitted & ~mask,
    inheritable: cur.inheritable & ~mask,
  });
}

/** ProcCaps are the capability lines of /proc/<pid>/status. */
export interface ProcCaps {
  readonly inheritable: bigint;
  readonly permitted: bigint;
  readonly effective: bigint;
  readonly bounding: bigint;
  readonly ambient: bigint;
}

/** parseStatusCaps reads CapInh/CapPrm/CapEff/CapBnd/CapAmb out of a /proc/<pid>/status text. */
export function parseStatusCaps(status: string): ProcCaps {
  const field = (key: string): bigint => {
    const m = new RegExp(`^${key}:\\s*([0-9a-f]+)$`, 'm').exec(status);
    if (!m) throw new Error(`status has no ${key} line`);
    return BigInt(`0x${m[1]}`);
  };
  return {
    inheritable: field('CapInh'),
    permitted: field('CapPrm'),
    effective: field('CapEff'),
    bounding: field('CapBnd'),
    ambient: field('CapAmb'),
  };
}
