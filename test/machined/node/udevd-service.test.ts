import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { UDEVD_SERVICE, udevdService } from '../../../src/machined/node/udevd-service.js';
import type { Supervisor } from '../../../src/machined/services/supervisor.js';
import { count, newSupervisor, waitService } from '../services/helpers.js';

const dirs: string[] = [];
const supervisors: Supervisor[] = [];
afterEach(async () => {
  await Promise.all(supervisors.splice(0).map((s) => s.stopAll()));
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** stand-ins for the two udev programs: the daemon records its pid and argv, udevadm its calls */
function fakeUdev() {
  const dir = mkdtempSync(join(tmpdir(), 'keel-udevd-'));
  dirs.push(dir);
  const script = (name: string, body: string) => {
    const p = join(dir, name);
    writeFileSync(p, `#!/bin/sh\n${body}\n`);
    chmodSync(p, 0o755);
    return p;
  };
  const udevd = script('udevd', `echo "$$ $*" >> ${dir}/daemon.log\nexec sleep 1000`);
  const udevadm = script('udevadm', `echo "$*" >> ${dir}/udevadm.log`);
  const read = (name: string) => readFileSync(join(dir, name), 'utf8').trim().split('\n');
  return { udevd, udevadm, read };
}

describe('udevd service', () => {
  it('is absent on a root without udev', () => {
    expect(udevdService({ exists: () => false })).toBeUndefined();
  });

  it('runs the daemon without name resolution, coldplugs once per start and settles; a killed daemon restarts', async () => {
    const fake = fakeUdev();
    const { supervisor, events } = newSupervisor();
    supervisors.push(supervisor);
    const def = udevdService({ udevd: fake.udevd, udevadm: fake.udevadm });
    expect(def).toBeDefined();
    supervisor.load(def!);
    supervisor.start(UDEVD_SERVICE);
    await supervisor.waitFor([UDEVD_SERVICE], { signal: AbortSignal.timeout(10_000) });
    const [first] = fake.read('daemon.log');
    expect(first).toMatch(/^\d+ --resolve-names=never$/);
    expect(fake.read('udevadm.log').slice(0, 3)).toEqual([
      'trigger --type=devices --action=add',
      'trigger --type=subsystems --action=add',
      'settle --timeout=50',
    ]);

    // a killed daemon is started again; its device database in /run survives, so no second coldplug
    process.kill(Number(first!.split(' ')[0]), 'SIGKILL');
    await waitService(events, UDEVD_SERVICE, (e) => count(e, 'RUNNING') >= 2);
    await supervisor.waitFor([UDEVD_SERVICE], { signal: AbortSignal.timeout(10_000) });
    await expect.poll(() => fake.read('daemon.log').length, { timeout: 10_000 }).toBe(2);
    const calls = fake.read('udevadm.log');
    expect(calls.filter((l) => l.startsWith('trigger --type=devices'))).toHaveLength(1);
    expect(calls.filter((l) => l.startsWith('settle')).length).toBeGreaterThanOrEqual(1);
  });
});
