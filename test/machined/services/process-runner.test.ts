import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { readLines } from '../../../src/machined/logging/lines.js';
import { LogRing } from '../../../src/machined/logging/ring.js';
import { type Reaper, startReaper } from '../../../src/machined/reaper.js';
import { ServiceError } from '../../../src/machined/services/errors.js';
import { type ProcessRunnerOptions, processRunner } from '../../../src/machined/services/process-runner.js';
import type { RunOutcome } from '../../../src/machined/services/runner.js';
import { spawnWithoutFork } from '../../../src/machined/services/spawn-without-fork.js';
import { node, tracked } from './helpers.js';

// posix_spawn's children end through machined's reaper, as in PID 1
let reaper: Reaper | undefined;
beforeAll(() => {
  reaper = startReaper({ intervalMs: 200 });
});
afterAll(() => reaper?.stop());

/** line resolves once the log holds a line matching `re`. */
async function line(log: LogRing, re: RegExp): Promise<string> {
  const ac = new AbortController();
  try {
    for await (const l of readLines(log, { signal: ac.signal, follow: true })) if (re.test(l)) return l;
  } finally {
    ac.abort();
  }
  throw new Error('log ended');
}

describe.each([
  ['child_process.spawn', spawn],
  ['spawnWithoutFork', spawnWithoutFork],
] as const)('processRunner through %s', (_, base) => {
  const kids = tracked(base);
  afterEach(() => kids.killAll());

  /** run runs one attempt; `whenRunning` sees the pid once the child runs. */
  function run(opts: Omit<ProcessRunnerOptions, 'spawn'>, signal = new AbortController().signal) {
    const log = new LogRing();
    const states: string[] = [];
    const outcome: Promise<RunOutcome> = processRunner({ ...opts, spawn: kids.spawn }).run({
      signal,
      log,
      sink: (s, m) => states.push(`${s}: ${m}`),
    });
    return { log, states, outcome };
  }

  it('runs a real child, captures stdout and stderr, and reports success', async () => {
    const r = run({ args: node("console.log('to stdout'); console.error('to stderr')") });
    expect(await r.outcome).toEqual({ type: 'success' });
    const text = r.log.slice().toString();
    expect(text).toContain('to stdout\n');
    expect(text).toContain('to stderr\n');
    expect(r.states[0]).toMatch(/^Running: Process Process\(.*\) started with PID \d+$/);
  });

  it('reports a non-zero exit as a failure', async () => {
    const r = run({ args: node('process.exit(3)') });
    const out = await r.outcome;
    expect(out.type).toBe('failure');
    expect(out.type === 'failure' && out.error.message).toMatch(/exited with code 3$/);
  });

  it('passes environment, working directory', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'keel-proc-'));
    try {
      const r = run({
        args: ['/bin/sh', '-c', 'echo "$GREETING"; pwd'],
        env: { GREETING: 'hello' },
        cwd: dir,
      });
      expect(await r.outcome).toEqual({ type: 'success' });
      expect(r.log.slice().toString()).toBe(`hello\n${dir}\n`);
    } finally {
      rmSync(dir, { recursive: true });
    }
  });

  it('runs as the given uid and gid (needs root)', async () => {
    expect(process.getuid?.(), 'this test needs root to switch uid/gid').toBe(0);
    const r = run({ args: ['/bin/sh', '-c', 'id -u; id -g'], uid: 65534, gid: 65534 });
    expect(await r.outcome).toEqual({ type: 'success' });
    expect(r.log.slice().toString()).toBe('65534\n65534\n');
  });

  it('sends SIGTERM, then SIGKILL to a child that ignores SIGTERM', async () => {
    const ac = new AbortController();
    const r = run(
      {
        args: node(
          "process.on('SIGTERM', () => console.log('got SIGTERM, ignoring')); console.log('ready'); setInterval(() => {}, 1000);",
        ),
        gracefulShutdownTimeoutMs: 200,
      },
      ac.signal,
    );
    await line(r.log, /^ready$/);
    ac.abort();
    expect(await r.outcome).toEqual({ type: 'stopped' });
    expect(r.log.slice().toString()).toContain('got SIGTERM, ignoring');
    expect(kids.children.at(-1)!.exit?.signal).toBe('SIGKILL');
  });

  it('stops a well-behaved child with SIGTERM alone', async () => {
    const ac = new AbortController();
    const r = run({ args: node("console.log('ready'); setInterval(() => {}, 1000);") }, ac.signal);
    await line(r.log, /^ready$/);
    ac.abort();
    expect(await r.outcome).toEqual({ type: 'stopped' });
    expect(kids.children.at(-1)!.exit?.signal).toBe('SIGTERM');
  });

  it('reports a program that cannot be spawned', async () => {
    const out = await run({ args: ['/nonexistent/program'] }).outcome;
    expect(out.type === 'failure' && out.error).toBeInstanceOf(ServiceError);
    expect(out.type === 'failure' && (out.error as ServiceError).code).toBe('spawn-failed');
  });

  it('drops capabilities through the default launcher when none is set (needs root)', async () => {
    expect(process.getuid?.(), 'this test needs root (CAP_SETPCAP) to drop capabilities').toBe(0);
    const r = run({
      args: ['/bin/grep', '^CapBnd:', '/proc/self/status'],
      dropCapabilities: ['CAP_SYS_ADMIN'],
    });
    expect(await r.outcome).toEqual({ type: 'success' });
    const bnd = BigInt(`0x${/^CapBnd:\s*([0-9a-f]+)$/m.exec(r.log.slice().toString())![1]}`);
    expect(bnd & (1n << 21n)).toBe(0n); // CAP_SYS_ADMIN
    expect(bnd & 1n).toBe(1n); // CAP_CHOWN kept
  });

  it('refuses an unknown capability name without spawning, naming it', async () => {
    const before = kids.children.length;
    const out = await run({ args: ['/bin/true'], dropCapabilities: ['CAP_SYS_ADMIN', 'CAP_FLY'] }).outcome;
    expect(out.type === 'failure' && (out.error as ServiceError).code).toBe('spawn-failed');
    expect(out.type === 'failure' && out.error.message).toMatch(/unknown capability "CAP_FLY"$/);
    expect(kids.children.length).toBe(before);
  });

  it('hands argv and the capabilities to drop to the launcher hook', async () => {
    const r = run({
      args: ['/bin/sh', '-c', 'echo "drop: $KEEL_DROP"'],
      dropCapabilities: ['CAP_SYS_ADMIN', 'CAP_NET_RAW'],
      capabilityLauncher: (argv, drop) => ['/usr/bin/env', `KEEL_DROP=${drop.join(',')}`, ...argv],
    });
    expect(await r.outcome).toEqual({ type: 'success' });
    expect(r.log.slice().toString()).toBe('drop: CAP_SYS_ADMIN,CAP_NET_RAW\n');
  });
});
