// Early mounts of PID 1 (Talos' MountPseudoLate, SetupSystemDirectories and MountCgroups), under a root.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { MS, mount } from '../sys/mount.js';
import { readMountInfo } from '../sys/mountinfo.js';
import { SYSTEM_CGROUP_BASE } from './cgroups.js';

export interface EarlyMount {
  target: string;
  fstype: string;
  source: string;
  flags: number;
  data?: string;
}

/** EARLY_MOUNTS: the late pseudo filesystems, in order. cgroup v1 is not supported. */
export const EARLY_MOUNTS: readonly EarlyMount[] = [
  {
    target: '/run',
    fstype: 'tmpfs',
    source: 'tmpfs',
    flags: MS.NOSUID | MS.NODEV | MS.NOEXEC,
    data: 'mode=0755',
  },
  { target: '/system', fstype: 'tmpfs', source: 'tmpfs', flags: 0, data: 'mode=0755' },
  { target: '/tmp', fstype: 'tmpfs', source: 'tmpfs', flags: 0, data: 'size=64M' },
  {
    target: SYSTEM_CGROUP_BASE,
    fstype: 'cgroup2',
    source: 'cgroup',
    flags: MS.NOSUID | MS.NODEV | MS.NOEXEC | MS.RELATIME,
    data: 'nsdelegate,memory_recursiveprot',
  },
];

/** SYSTEM_DIRECTORIES are created on the fresh tmpfs mounts, with their modes. */
export const SYSTEM_DIRECTORIES: readonly { path: string; mode: number }[] = [
  // world-readable: /etc/hosts and /etc/resolv.conf link into it
  { path: '/system/etc', mode: 0o755 },
  { path: '/system/var', mode: 0o700 },
  { path: '/system/state', mode: 0o700 },
  { path: '/system/run', mode: 0o751 },
  { path: '/system/run/containerd', mode: 0o711 },
  { path: '/run/containerd', mode: 0o711 },
];

/**
 * mountEarly mounts EARLY_MOUNTS below `root` (which is '/' on a node) and returns the mount points it
 * made. A target that is already a mount point is left as it is, so a restart of the sequence is safe.
 */
export function mountEarly(root = '/', mounts: readonly EarlyMount[] = EARLY_MOUNTS): string[] {
  const made: string[] = [];
  const existing = new Set(readMountInfo().map((m) => m.mountPoint));
  for (const m of mounts) {
    const target = join(root, m.target);
    if (existing.has(target)) continue;
    mkdirSync(target, { recursive: true });
    mount(m.source, target, m.fstype, { flags: m.flags, ...(m.data ? { data: m.data } : {}) });
    made.push(target);
  }
  for (const d of SYSTEM_DIRECTORIES) mkdirSync(join(root, d.path), { recursive: true, mode: d.mode });
  return made;
}
