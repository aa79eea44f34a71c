// The system cgroup tree (Talos' CreateSystemCgroups): reservations for machined, system services and pods.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const MiB = 1024 * 1024;

/** where a node's cgroup2 hierarchy is mounted (machined's early mounts) */
export const SYSTEM_CGROUP_BASE = '/sys/fs/cgroup';

export interface CgroupNode {
  path: string;
  /** memory.min: memory the kernel protects from reclaim */
  memoryMin?: number;
  memoryMax?: number;
  /** CPU share in millicores, written as cpu.weight */
  millicores?: number;
}

/** SYSTEM_CGROUPS, parents before children. */
export const SYSTEM_CGROUPS: readonly CgroupNode[] = [
  { path: 'init', memoryMin: 96 * MiB, millicores: 2000 },
  { path: 'system', memoryMin: 96 * MiB, millicores: 1500 },
  { path: 'system/runtime', memoryMin: 48 * MiB },
  { path: 'system/udevd', memoryMin: 8 * MiB },
  { path: 'system/trustd', memoryMin: 8 * MiB, memoryMax: 128 * MiB },
  { path: 'system/apid', memoryMin: 16 * MiB, memoryMax: 128 * MiB },
  { path: 'system/sandbox', memoryMin: 32 * MiB },
  { path: 'system/installer' },
  { path: 'system/extensions' },
  { path: 'system/dashboard' },
  { path: 'system/debug' },
  { path: 'podruntime', millicores: 4000 },
  { path: 'podruntime/runtime', memoryMin: 196 * MiB },
  { path: 'podruntime/shim', memoryMin: 48 * MiB },
  { path: 'podruntime/kubelet', memoryMin: 96 * MiB },
  { path: 'podruntime/etcd' },
  { path: 'kubepods' },
];

/** cpuWeight maps millicores to cgroup v2 cpu.weight (1–10000), 1000m being the default 100. */
export const cpuWeight = (millicores: number): number =>
  Math.max(1, Math.min(10_000, Math.round(millicores / 10)));

/**
 * createCgroupTree makes the tree below `base` and applies the settings whose controllers the hierarchy
 * offers. It returns the settings it could not apply (a controller bound elsewhere, e.g. to cgroup v1),
 * so the caller decides whether that is fatal. Each parent delegates its controllers once, and a setting
 * is written without looking for its file first: every call is a kernel entry, and at PID 1's start under
 * emulation each one is slow.
 */
export function createCgroupTree(base: string, tree: readonly CgroupNode[] = SYSTEM_CGROUPS): string[] {
  const skipped: string[] = [];
  const available = new Set(
    readFileSync(join(base, 'cgroup.controllers'), 'utf8').trim().split(/\s+/).filter(Boolean),
  );
  const wanted = ['cpu', 'memory'].filter((c) => available.has(c));
  const delegated = new Set<string>();
  for (const node of tree) {
    const dir = join(base, node.path);
    const parent = join(dir, '..');
    // a child sees a controller only once its parent delegates it
    if (wanted.length && !delegated.has(parent)) {
      writeFileSync(join(parent, 'cgroup.subtree_control'), wanted.map((c) => `+${c}`).join(' '));
      delegated.add(parent);
    }
    mkdirSync(dir, { recursive: true });
    const settings: [string, number | undefined][] = [
      ['memory.min', node.memoryMin],
      ['memory.max', node.memoryMax],
      ['cpu.weight', node.millicores === undefined ? undefined : cpuWeight(node.millicores)],
    ];
    for (const [file, value] of settings) {
      if (value === undefined) continue;
      try {
        writeFileSync(join(dir, file), String(value), { flag: 'r+' });
      } catch (e) {
        // the controller is not delegated here, so its files do not exist
        if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
        skipped.push(`${node.path}/${file}`);
      }
    }
  }
  return skipped;
}

/**
 * setUpSystemCgroups makes the system tree below `base` (a node's /sys/fs/cgroup) and moves `pid`
 * (machined) into its own reservation, init/: everything machined starts goes to system/ or podruntime/
 * instead. The settings that could not be applied are logged in one line.
 */
export function setUpSystemCgroups(base: string, pid: number, log: (line: string) => void): void {
  const skipped = createCgroupTree(base);
  if (skipped.length) log(`cgroups: controllers unavailable for ${skipped.join(', ')}`);
  moveToCgroup(join(base, 'init'), pid);
}

/** moveToCgroup moves a process (all its threads) into the cgroup directory `dir`. */
export function moveToCgroup(dir: string, pid: number): void {
  writeFileSync(join(dir, 'cgroup.procs'), String(pid));
}
