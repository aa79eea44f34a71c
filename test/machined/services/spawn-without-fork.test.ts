// spawnWithoutFork and runProgram with real children: posix_spawn through koffi, exits through the
// reaper that machined runs (started here as machined does), output through real pipes.
import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Reaped, type Reaper, startReaper } from '../../../src/machined/reaper.js';
import type { ServiceChild } from '../../../src/machined/services/process-runner.js';
import { ProgramError, runProgram } from '../../../src/machined/services/run-program.js';
import { spawnWithoutFork } from '../../../src/machined/services/spawn-without-fork.js';
import { awaitedCount } from '../../../src/machined/spawned-exits.js';

let reaper: Reaper | undefined;
const orphans: Reaped[] = [];
beforeAll(() => {
  reaper = startReaper({ intervalMs: 200 });
  reaper.onReap((r) => orphans.push(r));
});
afterAll(() => reaper?.stop());

const ended = (c: ServiceChild) =>
  new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    c.once('exit', (code: number | null, signal: NodeJS.Signals | null) => resolve({ code, signal })),
  );
const started = (c: ServiceChild) =>
  new Promise<void>((resolve, reject) => {
    c.once('spawn', resolve);
    c.once('error', reject);
  });
const text = async (c: ServiceChild) => {
  const parts: Buffer[] = [];
  for await (const b of c.stdout!) parts.push(b as Buffer);
  return Buffer.concat(parts).toString('utf8');
};

describe('spawnWithoutFork', () => {
  it('starts the child with every signal at its default and none blocked, stdin at /dev/null', async () => {
    // Node itself ignores SIGPIPE: a forked child would keep that across exec unless reset
    const c = spawnWithoutFork('/bin/sh', ['-c', 'grep -E "^Sig(Ign|Blk)" /proc/self/status; wc -c'], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { PATH: '/usr/bin:/bin' },
    });
    const [out, end] = await Promise.all([text(c), ended(c)]);
    expect(end).toEqual({ code: 0, signal: null });
    expect(out).toBe('SigBlk:\t0000000000000000\nSigIgn:\t0000000000000000\n0\n');
  });

  it('hands the environment and working directory over exactly, and finds a bare name in its PATH', async () => {
    const c = spawnWithoutFork('env', [], {
      stdio: ['ignore', 'pipe', 'ignore'],
      env: { PATH: '/usr/bin:/bin', ONLY: 'this' },
      cwd: '/tmp',
    });
    // listened for before the output is read: the exit can come before the pipe's end (a busy host)
    const end = ended(c);
    expect((await text(c)).split('\n').filter(Boolean).sort()).toEqual(['ONLY=this', 'PATH=/usr/bin:/bin']);
    await end;
    const pwd = spawnWithoutFork('/bin/pwd', [], { stdio: ['ignore', 'pipe', 'ignore'], cwd: '/tmp' });
    expect(await text(pwd)).toBe('/tmp\n');
  });

  it('delivers every exit to its starter, none to the orphan listeners, when many children end at once', async () => {
    orphans.length = 0;
    const children = Array.from({ length: 40 }, (_, i) =>
      spawnWithoutFork('/bin/sh', ['-c', `exit ${i % 7}`], { stdio: 'ignore' }),
    );
    const ends = await Promise.all(children.map(ended));
    expect(ends.map((e) => e.code)).toEqual(children.map((_, i) => i % 7));
    const pids = new Set(children.map((c) => c.pid));
    expect(orphans.filter((o) => pids.has(o.pid))).toEqual([]);
    expect(awaitedCount()).toBe(0);
  });

  it("still delivers exits when a 'spawn' listener throws", async () => {
    const c = spawnWithoutFork('/bin/true', [], { stdio: 'ignore' });
    const thrown = new Promise<unknown>((resolve) => process.once('unhandledRejection', resolve));
    c.once('spawn', () => {
      throw new Error('listener failed');
    });
    const exit = ended(c);
    expect(await thrown).toMatchObject({ message: 'listener failed' });
    expect(await exit).toEqual({ code: 0, signal: null });
    const next = spawnWithoutFork('/bin/sh', ['-c', 'exit 5'], { stdio: 'ignore' });
    expect(await ended(next)).toEqual({ code: 5, signal: null });
    expect(awaitedCount()).toBe(0);
  });

  it('reports a signal by name, and kill() is refused once the child has ended', async () => {
    const c = spawnWithoutFork('/bin/sleep', ['30'], { stdio: 'ignore' });
    await started(c);
    expect(c.kill('SIGTERM')).toBe(true);
    expect(await ended(c)).toEqual({ code: null, signal: 'SIGTERM' });
    expect(c.kill('SIGKILL')).toBe(false);
  });

  it("reports a program that cannot start through 'error', naming it", async () => {
    const c = spawnWithoutFork('/nonexistent/program', [], { stdio: ['ignore', 'pipe', 'pipe'] });
    await expect(started(c)).rejects.toMatchObject({
      code: 'ENOENT',
      message: 'posix_spawn("/nonexistent/program"): ENOENT (no such file or directory)',
    });
    expect(c.pid).toBeUndefined();
  });

  it('refuses a stdin it cannot give, leaving no descriptor open', () => {
    const fds = () => readdirSync('/proc/self/fd').length;
    const before = fds();
    expect(() => spawnWithoutFork('/bin/cat', [], { stdio: 'pipe' })).toThrow(
      'spawnWithoutFork: stdin "pipe" is not supported',
    );
    expect(fds()).toBe(before);
  });

  it('names a bare program that is not in the PATH it was given', () => {
    expect(() => spawnWithoutFork('udevadm', [], { env: { PATH: '/nonexistent' } })).toThrow(
      '"udevadm" not found in PATH',
    );
  });

  it('needs the reaper: without one it refuses instead of leaving the exit undelivered', () => {
    reaper!.stop();
    try {
      expect(() => spawnWithoutFork('/bin/true', [], {})).toThrow(/no reaper runs to deliver the exit/);
    } finally {
      reaper = startReaper({ intervalMs: 200 });
      reaper.onReap((r) => orphans.push(r));
    }
  });
});

describe.each([
  ['child_process.spawn', spawn],
  ['spawnWithoutFork', spawnWithoutFork],
] as const)('runProgram through %s', (_, base) => {
  it('resolves with the output of a program that exits 0', async () => {
    expect(await runProgram(base, '/bin/sh', ['-c', 'echo out; echo err >&2'])).toBe('out\n');
  });

  it('rejects with the exit code and the last lines of stderr', async () => {
    const e = await runProgram(base, '/bin/sh', ['-c', 'echo one >&2; echo two >&2; exit 4']).catch((x) => x);
    expect(e).toBeInstanceOf(ProgramError);
    expect(e).toMatchObject({ code: 4, signal: null, stderr: 'one\ntwo' });
    expect(e.message).toBe('/bin/sh -c echo one >&2; echo two >&2; exit 4: exited with code 4: one | two');
  });

  it('kills the program when aborted', async () => {
    const ac = new AbortController();
    const running = runProgram(base, '/bin/sleep', ['30'], { signal: ac.signal });
    setTimeout(() => ac.abort(new Error('health check timed out')), 100);
    await expect(running).rejects.toThrow('health check timed out');
  });

  it('kills a program aborted before it had started', async () => {
    const ac = new AbortController();
    const t0 = Date.now();
    const running = runProgram(base, '/bin/sleep', ['30'], { signal: ac.signal });
    ac.abort(new Error('stopping'));
    await expect(running).rejects.toThrow('stopping');
    expect(Date.now() - t0).toBeLessThan(10_000);
  }, 20_000);

  it('names a program that cannot start', async () => {
    await expect(runProgram(base, '/nonexistent/udevadm', ['settle'])).rejects.toThrow(
      /^\/nonexistent\/udevadm settle: .*ENOENT/,
    );
  });
});
