// machined as PID 1 of its own PID + mount namespace: reaping, the orderly shutdown and the emergency path.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { fixture, indexOfLine, runAsPid1 } from './pid1.js';

/** scratch gives each run its own root for the early mounts and removes it afterwards. */
function scratch(): string {
  const dir = mkdtempSync(join(tmpdir(), 'keel-pid1-'));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

describe('machined as PID 1', () => {
  it('keeps every own exit code while reaping 1,000 orphans, leaving no zombie (#5)', async () => {
    const run = runAsPid1(fixture('reap.ts'), [scratch()]);
    onTestFinished(() => run.kill());
    const line = await run.waitForLine(/^RESULT /);
    const result = JSON.parse(line.slice('RESULT '.length));
    expect(result.wrong).toEqual([]);
    expect(result.children).toBe(1000);
    expect(result.orphansReaped).toBe(1000);
    expect(result.otherReaped).toBe(0);
    expect(result.zombies).toEqual([]);
    // the fixture powers off afterwards: the kernel ends the namespace's init with SIGINT
    expect(await run.ended).toEqual({ code: null, signal: 'SIGINT' });
  }, 120_000);

  it('runs the shutdown hooks in order on SIGTERM and ends in reboot(POWER_OFF)', async () => {
    const root = scratch();
    const run = runAsPid1(fixture('shutdown.ts'), [root]);
    onTestFinished(() => run.kill());
    await run.waitForLine(/^READY$/);
    process.kill(run.innerPid(), 'SIGTERM');
    const ended = await run.ended;
    const order = [
      'SIGTERM: poweroff',
      'hook first: boot id kept',
      'hook second',
      'hook third',
      'shutdown hook stopControllerRuntime',
      'power-down: killing all processes',
      'power-down: unmounting filesystems',
      `unmounted ${root}/run`,
      'power-down: syncing',
      'power-down: reboot(POWER_OFF)',
    ];
    const at = order.map((t) => indexOfLine(run.lines, t));
    expect(
      at.every((i) => i >= 0),
      run.lines.join('\n'),
    ).toBe(true);
    expect([...at].sort((a, b) => a - b)).toEqual(at);
    // the long-running child got SIGTERM from the kill-all, and its status still reached its starter
    expect(indexOfLine(run.lines, 'sleeper ended: {"kind":"signaled","signal":15')).toBeGreaterThan(at[4]!);
    // man 2 reboot: in a PID namespace, POWER_OFF kills its init with SIGINT
    expect(ended).toEqual({ code: null, signal: 'SIGINT' });
  }, 60_000);

  it('takes the emergency path on an uncaught exception and ends in reboot(RESTART), not exit', async () => {
    const run = runAsPid1(fixture('crash.ts'), [scratch()]);
    onTestFinished(() => run.kill());
    const ended = await run.ended;
    const order = [
      'READY',
      'emergency: uncaughtException: Error: boom from a timer',
      'emergency hook ran',
      'power-down: killing all processes',
      'power-down: syncing',
      'power-down: reboot(RESTART)',
    ];
    const at = order.map((t) => indexOfLine(run.lines, t));
    expect(
      at.every((i) => i >= 0),
      run.lines.join('\n'),
    ).toBe(true);
    expect([...at].sort((a, b) => a - b)).toEqual(at);
    // RESTART in a PID namespace kills its init with SIGHUP; an exit would show a code instead
    expect(ended).toEqual({ code: null, signal: 'SIGHUP' });
  }, 60_000);
});
