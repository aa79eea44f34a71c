// mount(2), umount2(2) and the new mount API (fsopen → fsconfig → fsmount → move_mount).
import { closeSync } from 'node:fs';
import { check } from './errno.js';
import { AT_FDCWD, libc, rawSyscall, SYS } from './libc.js';

/** Mount flags of mount(2) (MS_*). */
export const MS = {
  RDONLY: 1,
  NOSUID: 2,
  NODEV: 4,
  NOEXEC: 8,
  SYNCHRONOUS: 16,
  REMOUNT: 32,
  DIRSYNC: 128,
  NOSYMFOLLOW: 256,
  NOATIME: 1024,
  NODIRATIME: 2048,
  BIND: 4096,
  MOVE: 8192,
  REC: 16384,
  SILENT: 32768,
  UNBINDABLE: 1 << 17,
  PRIVATE: 1 << 18,
  SLAVE: 1 << 19,
  SHARED: 1 << 20,
  RELATIME: 1 << 21,
  STRICTATIME: 1 << 24,
  LAZYTIME: 1 << 25,
} as const;

/** Flags of umount2(2). */
export const MNT = { FORCE: 1, DETACH: 2, EXPIRE: 4, NOFOLLOW: 8 } as const;

/** Attributes of fsmount(2)/mount_setattr(2) (MOUNT_ATTR_*). */
export const MOUNT_ATTR = {
  RDONLY: 0x1,
  NOSUID: 0x2,
  NODEV: 0x4,
  NOEXEC: 0x8,
  RELATIME: 0,
  NOATIME: 0x10,
  STRICTATIME: 0x20,
  NODIRATIME: 0x80,
  NOSYMFOLLOW: 0x200000,
} as const;

const FSOPEN_CLOEXEC = 1;
const FSMOUNT_CLOEXEC = 1;
const MOVE_MOUNT_F_EMPTY_PATH = 4;
const FSCONFIG = { SET_FLAG: 0, SET_STRING: 1, CMD_CREATE: 6 } as const;

const mount_ = libc.func(
  'int mount(const char *source, const char *target, const char *fstype, unsigned long flags, const char *data)',
);
const umount2_ = libc.func('int umount2(const char *target, int flags)');

export interface MountOptions {
  /** MS_* flags or'ed together */
  flags?: number;
  /** filesystem-specific options, e.g. 'size=64M,mode=0755' */
  data?: string;
}

/** mount attaches `source` of type `fstype` at `target`. */
export function mount(source: string, target: string, fstype: string | null, opts: MountOptions = {}): void {
  check(mount_(source, target, fstype, opts.flags ?? 0, opts.data ?? null), 'mount', source, target);
}

/** umount detaches the mount at `target` (MNT_* flags). */
export function umount(target: string, flags = 0): void {
  check(umount2_(target, flags), 'umount2', target);
}

/** fsopen opens a filesystem context; close it with closeSync. */
export function fsopen(fstype: string): number {
  return Number(check(rawSyscall(SYS.fsopen, 'str', fstype, 'uint', FSOPEN_CLOEXEC), 'fsopen', fstype));
}

/** fsconfigString sets a string parameter (value null: a flag parameter). */
export function fsconfigString(fsfd: number, key: string, value: string | null): void {
  const cmd = value === null ? FSCONFIG.SET_FLAG : FSCONFIG.SET_STRING;
  check(
    rawSyscall(SYS.fsconfig, 'int', fsfd, 'uint', cmd, 'str', key, 'str', value, 'int', 0),
    'fsconfig',
    key,
    value ?? '',
  );
}

/** fsconfigCreate creates the superblock from the parameters set so far. */
export function fsconfigCreate(fsfd: number): void {
  check(
    rawSyscall(SYS.fsconfig, 'int', fsfd, 'uint', FSCONFIG.CMD_CREATE, 'str', null, 'str', null, 'int', 0),
    'fsconfig',
    'create',
  );
}

/** fsmount turns a created context into a detached mount fd with MOUNT_ATTR_* attributes. */
export function fsmount(fsfd: number, attrs = 0): number {
  return Number(
    check(rawSyscall(SYS.fsmount, 'int', fsfd, 'uint', FSMOUNT_CLOEXEC, 'uint', attrs), 'fsmount', attrs),
  );
}

/** moveMount attaches a detached mount fd at `target`. */
export function moveMount(mountfd: number, target: string): void {
  check(
    rawSyscall(
      SYS.move_mount,
      'int',
      mountfd,
      'str',
      '',
      'int',
      AT_FDCWD,
      'str',
      target,
      'uint',
      MOVE_MOUNT_F_EMPTY_PATH,
    ),
    'move_mount',
    target,
  );
}

/**
 * mountNew mounts with the new API, which reports per-parameter errors and lets a mount exist detached
 * before it is placed. Parameters map to fsconfig (null value: a flag).
 */
export function mountNew(
  fstype: string,
  target: string,
  params: Readonly<Record<string, string | null>> = {},
  attrs = 0,
): void {
  const fsfd = fsopen(fstype);
  try {
    for (const [k, v] of Object.entries(params)) fsconfigString(fsfd, k, v);
    fsconfigCreate(fsfd);
    const mfd = fsmount(fsfd, attrs);
    try {
      moveMount(mfd, target);
    } finally {
      closeSync(mfd);
    }
  } finally {
    closeSync(fsfd);
  }
}
