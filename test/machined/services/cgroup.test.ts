import { existsSync, readFileSync } from 'node:fs';
import { rmdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { LogRing } from '../../../src/machined/logging/ring.js';
import { cgroup2Placer } from '../../../src/machined/services/cgroup.js';
import { ServiceError } from '../../../src/machined/services/errors.js';
import { processRunner } from '../../../src/machined/services/process-runner.js';
import { tracked } from './helpers.js';

/** cgroup2Root finds a writable cgroup v2 mount whose root is the hierarchy root. */
function cgroup2Root(): string {
  expect(process.getuid?.(), 'cgroup placement tests need root').toBe(0);
  const mounts = readFileSync('/proc/self/mountinfo', 'utf8').split('\n');
  const m = mounts.map((l) => l.split(' ')).find((f) => f[3] === '/' && f[f.indexOf('-') + 1] === 'cgroup2');
  expect(m, 'cgroup placement tests need a cgroup2 mount').toBeDefined();
  return m![4]!;
}

const kids = tracked();
const TOP = `keel-test-${process.pid}`;
let root = '';

afterEach(async () => {
  kids.killAll();
  if (!root) return;
  const placer = cgroup2Placer(root);
  await placer.remove(`${TOP}/svc`).catch(() => {});
  await rmdir(join(root, TOP)).catch(() => {});
});

describe('cgroup2Placer (real cgroup v2)', () => {
  it('places a service process in its cgroup and removes the cgroup with everything left in it', async () => {
    root = cgroup2Root();
    const placer = cgroup2Placer(root);
    const ac = new AbortController();
    let pid = 0;
    let cgroupSeen = '';
    let members: number[] = [];
    let placed!: () => void;
    const running = new Promise<void>((resolve) => {
      placed = resolve;
    });
    const outcome = processRunner({
      // the shell leaves a grandchild behind: the cgroup must take it down too. The child is moved
      // after it starts, so the shell forks only once it sees itself in the cgroup.
      args: [
        '/bin/sh',
        '-c',
        `until grep -q ${TOP} /proc/$$/cgroup; do :; done; sleep 1000 & echo started; wait`,
      ],
      cgroup: { path: `${TOP}/svc`, placer },
      spawn: kids.spawn,
    }).run({
      signal: ac.signal,
      log: new LogRing(),
      sink: (_, msg) => {
        pid = Number(/PID (\d+)/.exec(msg)![1]);
        cgroupSeen = readFileSync(`/proc/${pid}/cgroup`, 'utf8');
        void placer.pids(`${TOP}/svc`).then((p) => {
          members = p;
          placed();
        });
      },
    });
    await running;
    expect(cgroupSeen).toContain(`0::/${TOP}/svc`);
    expect(members).toContain(pid);
    ac.abort();
    expect(await outcome).toEqual({ type: 'stopped' });
    expect(existsSync(join(root, TOP, 'svc'))).toBe(false);
  });

  it('rejects paths that escape the hierarchy', async () => {
    const placer = cgroup2Placer(join(tmpdir(), 'keel-no-cgroup'));
    await expect(placer.place(1, '../x')).rejects.toBeInstanceOf(ServiceError);
    await expect(placer.place(1, '/')).rejects.toBeInstanceOf(ServiceError);
  });
});
