// The system cgroup tree, built for real below a scratch cgroup of the machine's cgroup2 hierarchy.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import {
  cpuWeight,
  createCgroupTree,
  moveToCgroup,
  SYSTEM_CGROUPS,
  setUpSystemCgroups,
} from '../../src/machined/cgroups.js';
import { spawnProcess } from '../../src/machined/spawn.js';
import { readMountInfo } from '../../src/sys/mountinfo.js';

/** removeTree removes cgroup directories depth-first (cgroupfs refuses a recursive rm). */
function removeTree(dir: string): void {
  if (!existsSync(dir)) return;
  for (const e of readdirSync(dir, { withFileTypes: true }))
    if (e.isDirectory()) removeTree(join(dir, e.name));
  rmdirSync(dir);
}

describe('system cgroups', () => {
  it('converts millicores to cpu.weight', () => {
    expect(cpuWeight(1000)).toBe(100);
    expect(cpuWeight(2000)).toBe(200);
    expect(cpuWeight(0)).toBe(1);
    expect(cpuWeight(10_000_000)).toBe(10_000);
  });

  it('creates the tree, reports the settings whose controllers are not delegated, moves a process in', async () => {
    const v2 = readMountInfo().find((m) => m.fstype === 'cgroup2');
    if (!v2) throw new Error('needs a mounted cgroup2 hierarchy');
    const base = join(v2.mountPoint, `keel-test-${process.pid}`);
    onTestFinished(() => removeTree(base));
    // a fresh, empty cgroup: the base of the tree, as / is on a node
    removeTree(base);
    mkdirSync(base);
    const skipped = createCgroupTree(base);
    for (const node of SYSTEM_CGROUPS) expect(existsSync(join(base, node.path, 'cgroup.procs'))).toBe(true);
    const controllers = readFileSync(join(base, 'cgroup.controllers'), 'utf8');
    if (controllers.includes('memory')) {
      expect(readFileSync(join(base, 'init/memory.min'), 'utf8').trim()).toBe(String(96 * 1024 * 1024));
      expect(skipped.filter((s) => s.endsWith('memory.min'))).toEqual([]);
    } else {
      expect(skipped).toContain('init/memory.min');
    }
    if (controllers.includes('cpu'))
      expect(readFileSync(join(base, 'init/cpu.weight'), 'utf8').trim()).toBe('200');
    else expect(skipped).toContain('podruntime/cpu.weight');

    // a process moved into init shows that cgroup in its own view (it must be gone before the rmdir)
    const p = await spawnProcess('/bin/sleep', ['30']);
    try {
      moveToCgroup(join(base, 'init'), p.pid);
      expect(readFileSync(`/proc/${p.pid}/cgroup`, 'utf8')).toContain(
        `0::/${relative(v2.mountPoint, base)}/init\n`,
      );
    } finally {
      p.child.kill('SIGKILL');
      await p.exited;
    }
  });

  it('sets up the system tree and moves machined into init/, logging what it could not apply', async () => {
    const v2 = readMountInfo().find((m) => m.fstype === 'cgroup2');
    if (!v2) throw new Error('needs a mounted cgroup2 hierarchy');
    const base = join(v2.mountPoint, `keel-test-setup-${process.pid}`);
    onTestFinished(() => removeTree(base));
    removeTree(base);
    mkdirSync(base);
    const p = await spawnProcess('/bin/sleep', ['30']);
    try {
      const log: string[] = [];
      setUpSystemCgroups(base, p.pid, (l) => log.push(l));
      for (const node of SYSTEM_CGROUPS) expect(existsSync(join(base, node.path, 'cgroup.procs'))).toBe(true);
      expect(readFileSync(`/proc/${p.pid}/cgroup`, 'utf8')).toContain(
        `0::/${relative(v2.mountPoint, base)}/init\n`,
      );
      // one line naming every setting left out, or none when the hierarchy offers cpu and memory here
      const skipped = createCgroupTree(base);
      expect(log).toEqual(
        skipped.length ? [`cgroups: controllers unavailable for ${skipped.join(', ')}`] : [],
      );
    } finally {
      p.child.kill('SIGKILL');
      await p.exited;
    }
  });

  it('skips, and names, every setting when the hierarchy delegates no controller to the base', () => {
    const v2 = readMountInfo().find((m) => m.fstype === 'cgroup2');
    if (!v2) throw new Error('needs a mounted cgroup2 hierarchy');
    // the scratch cgroup delegates nothing, so its child (the base) has no controller files at all
    const scratch = join(v2.mountPoint, `keel-test-bare-${process.pid}`);
    onTestFinished(() => removeTree(scratch));
    removeTree(scratch);
    mkdirSync(join(scratch, 'base'), { recursive: true });
    const base = join(scratch, 'base');
    expect(readFileSync(join(base, 'cgroup.controllers'), 'utf8').trim()).toBe('');
    const tree = [
      { path: 'a', memoryMin: 1024 * 1024, millicores: 500 },
      { path: 'a/b', memoryMax: 2 * 1024 * 1024 },
    ];
    expect(createCgroupTree(base, tree)).toEqual(['a/memory.min', 'a/cpu.weight', 'a/b/memory.max']);
    expect(existsSync(join(base, 'a/b/cgroup.procs'))).toBe(true);
  });
});
