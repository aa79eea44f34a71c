// The power-down steps that are safe outside PID 1: listing live processes and unmounting in a namespace.
import { readFileSync } from 'node:fs';
import { describe, expect, it, onTestFinished } from 'vitest';
import { livePids } from '../../src/machined/kill-all.js';
import { spawnProcess } from '../../src/machined/spawn.js';
import { blockBacked } from '../../src/machined/unmount-all.js';
import type { MountInfo } from '../../src/sys/mountinfo.js';
import { requireRoot, runSnippet, scratchDir } from '../sys/child.js';

const machined = (f: string) => JSON.stringify(new URL(`../../src/machined/${f}`, import.meta.url).pathname);

describe('kill-all', () => {
  it('lists live processes but not itself, zombies or kernel threads', async () => {
    const p = await spawnProcess('/bin/sleep', ['30']);
    onTestFinished(() => {
      p.child.kill('SIGKILL');
    });
    const pids = livePids();
    expect(pids).toContain(p.pid);
    expect(pids).not.toContain(process.pid);
    // kernel threads (and zombies) have an empty command line; every listed process has one
    const withoutCmdline = pids.filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`).length === 0;
      } catch {
        return false; // exited since
      }
    });
    expect(withoutCmdline).toEqual([]);
  });
});

describe('unmount-all', () => {
  it('keeps / and takes only device-backed mounts by default', () => {
    const m = (mountPoint: string, source: string) => ({ mountPoint, source }) as MountInfo;
    expect(blockBacked(m('/', '/dev/vda'))).toBe(false);
    expect(blockBacked(m('/var', '/dev/sda5'))).toBe(true);
    expect(blockBacked(m('/run', 'tmpfs'))).toBe(false);
    const overlay = (superOptions: string) =>
      ({ mountPoint: '/etc/cni', source: 'overlay', fstype: 'overlay', superOptions }) as MountInfo;
    expect(blockBacked(overlay('rw,lowerdir=/etc/cni,upperdir=/var/x-diff,workdir=/var/x-work'))).toBe(true);
    expect(blockBacked(overlay('ro,lowerdir=/a:/b'))).toBe(false);
  });

  it('unmounts nested mounts children first, in a private mount namespace', () => {
    requireRoot('mounting');
    const dir = scratchDir('keel-umount-');
    const r = runSnippet(
      `
      import { mkdirSync } from 'node:fs';
      import { mount } from ${JSON.stringify(new URL('../../src/sys/mount.js', import.meta.url).pathname.replace(/\.js$/, '.ts'))};
      import { unmountAll } from ${machined('unmount-all.ts')};
      const dir = ${JSON.stringify(dir)};
      mount('outer', dir, 'tmpfs');
      mkdirSync(dir + '/inner');
      mount('inner', dir + '/inner', 'tmpfs');
      const log = [];
      const left = await unmountAll({ filter: (m) => m.mountPoint.startsWith(dir), log: (l) => log.push(l.replace(dir, 'D')), attempts: 2, retryDelayMs: 10 });
      console.log(JSON.stringify({ left, log }));
      `,
      ['--mount'],
    );
    expect(r.stderr).toBe('');
    expect(JSON.parse(r.stdout)).toEqual({ left: [], log: ['unmounted D/inner', 'unmounted D'] });
  });

  it('mounts the early filesystems below a root and leaves existing mount points alone', () => {
    requireRoot('mounting');
    const root = scratchDir('keel-early-');
    const r = runSnippet(
      `
      import { statSync } from 'node:fs';
      import { mountEarly } from ${machined('mounts.ts')};
      import { readMountInfo } from ${JSON.stringify(new URL('../../src/sys/mountinfo.js', import.meta.url).pathname.replace(/\.js$/, '.ts'))};
      const root = ${JSON.stringify(root)};
      const made = mountEarly(root).map((p) => p.slice(root.length));
      const again = mountEarly(root);
      const types = readMountInfo().filter((m) => m.mountPoint.startsWith(root)).map((m) => [m.mountPoint.slice(root.length), m.fstype, m.options.split(',').filter((o) => o.startsWith('no')).join(',')]);
      const mode = (statSync(root + '/system/etc').mode & 0o777).toString(8);
      console.log(JSON.stringify({ made, again, types, mode }));
      `,
      ['--mount'],
    );
    expect(r.stderr).toBe('');
    expect(JSON.parse(r.stdout)).toEqual({
      made: ['/run', '/system', '/tmp', '/sys/fs/cgroup'],
      again: [],
      types: [
        ['/run', 'tmpfs', 'nosuid,nodev,noexec'],
        ['/system', 'tmpfs', ''],
        ['/tmp', 'tmpfs', ''],
        ['/sys/fs/cgroup', 'cgroup2', 'nosuid,nodev,noexec'],
      ],
      mode: '755',
    });
  });
});
