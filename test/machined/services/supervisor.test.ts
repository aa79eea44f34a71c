import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readLines } from '../../../src/machined/logging/lines.js';
import type { Backoff } from '../../../src/machined/services/backoff.js';
import { isShuttingDown, isUnknownService, ServiceError } from '../../../src/machined/services/errors.js';
import { inProcessRunner } from '../../../src/machined/services/in-process-runner.js';
import { processRunner } from '../../../src/machined/services/process-runner.js';
import type { RestartPolicy } from '../../../src/machined/services/restart.js';
import type { Runner } from '../../../src/machined/services/runner.js';
import type { ServiceDefinition } from '../../../src/machined/services/service.js';
import { Supervisor } from '../../../src/machined/services/supervisor.js';
import { count, newSupervisor, node, tracked, waitService } from './helpers.js';

const kids = tracked();
const supervisors: Supervisor[] = [];
afterEach(async () => {
  try {
    await Promise.all(supervisors.splice(0).map((s) => s.stopAll()));
  } finally {
    kids.killAll();
  }
});

const setup = () => {
  const env = newSupervisor();
  supervisors.push(env.supervisor);
  return env;
};

/** recordingBackoff doubles from 10 ms and remembers every delay it handed out. */
const recordingBackoff = () => {
  const delays: number[] = [];
  const backoff: Backoff = {
    delay: (attempt) => {
      const d = 10 * 2 ** (attempt - 1);
      delays.push(d);
      return d;
    },
  };
  return { backoff, delays };
};

const proc = (id: string, args: string[], extra: Partial<ServiceDefinition> = {}): ServiceDefinition => ({
  id,
  runner: () => processRunner({ args, spawn: kids.spawn, gracefulShutdownTimeoutMs: 2000 }),
  ...extra,
});

/** idle is an in-process service that runs until stopped. */
const idle = (id: string, extra: Partial<ServiceDefinition> = {}): ServiceDefinition => ({
  id,
  runner: () =>
    inProcessRunner(
      id,
      ({ signal }) => new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve())),
    ),
  ...extra,
});

describe('Supervisor', () => {
  it('restarts a crash-looping service with growing backoff, and its logs survive every restart', async () => {
    const { supervisor, events, logs } = setup();
    const { backoff, delays } = recordingBackoff();
    supervisor.load(proc('crashy', node("console.log('run', process.pid); process.exit(1)"), { backoff }));
    supervisor.start('crashy');
    const crashed = (e: { action: string; message: string }) =>
      e.action === 'WAITING' && e.message.startsWith('Error running');
    const evs = await waitService(events, 'crashy', (e) => e.filter(crashed).length >= 5);
    const restarts = supervisor
      .info('crashy')
      .events.filter((e) => e.restartDelayMs !== undefined)
      .map((e) => e.restartDelayMs!);
    expect(restarts.slice(0, 4)).toEqual([10, 20, 40, 80]);
    expect(delays.slice(0, 4)).toEqual([10, 20, 40, 80]);
    for (let i = 1; i < restarts.length; i++) expect(restarts[i]!).toBeGreaterThan(restarts[i - 1]!);
    const waiting = evs.filter(crashed);
    expect(waiting[0]!.message).toMatch(/going to restart forever in 10ms: .*exited with code 1$/);
    await supervisor.stop('crashy');
    const pids = new Set(
      logs
        .serviceLog('crashy')
        .slice()
        .toString()
        .split('\n')
        .filter((l) => l.startsWith('run '))
        .map((l) => l.slice(4)),
    );
    expect(pids.size).toBeGreaterThanOrEqual(5);
    expect(supervisor.info('crashy').state).toBe('Finished');
  });

  const ends = async (policy: RestartPolicy, code: number) => {
    const { supervisor, events } = setup();
    supervisor.load(proc('svc', node(`process.exit(${code})`), { restart: policy }));
    supervisor.start('svc');
    return waitService(events, 'svc', (e) => ['FINISHED', 'FAILED'].includes(e.at(-1)!.action));
  };

  it('Once runs a single time, whatever the outcome', async () => {
    const ok = await ends('Once', 0);
    expect([count(ok, 'RUNNING'), ok.at(-1)!.action]).toEqual([1, 'FINISHED']);
    const bad = await ends('Once', 2);
    expect([count(bad, 'RUNNING'), bad.at(-1)!.action]).toEqual([1, 'FAILED']);
    expect(bad.at(-1)!.message).toMatch(/exited with code 2$/);
  });

  it('UntilSuccess restarts after a failure and stops after the first success', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'keel-svc-'));
    try {
      const { supervisor, events } = setup();
      const flag = join(dir, 'ran-once');
      supervisor.load(
        proc('svc', ['/bin/sh', '-c', `if [ -e ${flag} ]; then exit 0; fi; touch ${flag}; exit 1`], {
          restart: 'UntilSuccess',
          backoff: recordingBackoff().backoff,
        }),
      );
      supervisor.start('svc');
      const evs = await waitService(events, 'svc', (e) => e.at(-1)!.action === 'FINISHED');
      expect(count(evs, 'RUNNING')).toBe(2);
      expect(evs.at(-1)!.message).toBe('Service finished successfully');
    } finally {
      rmSync(dir, { recursive: true });
    }
  });

  it('Forever restarts even after a clean exit', async () => {
    const { supervisor, events } = setup();
    supervisor.load(proc('svc', ['/bin/true'], { backoff: recordingBackoff().backoff }));
    supervisor.start('svc');
    const evs = await waitService(events, 'svc', (e) => count(e, 'RUNNING') >= 2);
    expect(
      evs.some((e) => e.action === 'WAITING' && e.message.startsWith('Service exited, restarting')),
    ).toBe(true);
  });

  it('starts services after their dependencies and stops them in reverse', async () => {
    const { supervisor, events } = setup();
    supervisor.load(idle('c', { dependsOn: ['b'] }), idle('b', { dependsOn: ['a'] }), idle('a'));
    supervisor.start('c', 'b', 'a');
    await supervisor.waitFor(['a', 'b', 'c'], { signal: AbortSignal.timeout(10_000) });
    const order = (action: string) =>
      events
        .history()
        .map((e) => e.payload)
        .filter((p) => p.type === 'machine.ServiceStateEvent' && p.action === action)
        .map((p) => (p as { service: string }).service);
    expect(order('RUNNING')).toEqual(['a', 'b', 'c']);
    expect(supervisor.info('c').events.map((e) => e.msg)).toContain('Waiting for service "b" to be "up"');
    await supervisor.stop('a');
    expect(order('FINISHED')).toEqual(['c', 'b', 'a']);
  });

  it('stops everything in reverse dependency order', async () => {
    const { supervisor, events } = setup();
    supervisor.load(
      idle('a'),
      idle('b', { dependsOn: ['a'] }),
      idle('c', { dependsOn: ['a'] }),
      idle('d', { dependsOn: ['b', 'c'] }),
    );
    supervisor.startAll();
    await supervisor.waitFor(['a', 'b', 'c', 'd'], { signal: AbortSignal.timeout(10_000) });
    await supervisor.stopAll();
    const finished = events
      .history()
      .map((e) => e.payload)
      .filter((p) => p.type === 'machine.ServiceStateEvent' && p.action === 'FINISHED')
      .map((p) => (p as { service: string }).service);
    expect(finished[0]).toBe('d');
    expect(finished.at(-1)).toBe('a');
    expect(finished.slice(1, 3).sort()).toEqual(['b', 'c']);
  });

  it('refuses a dependency cycle and unknown ids', () => {
    const { supervisor } = setup();
    expect(() => supervisor.load(idle('x', { dependsOn: ['y'] }), idle('y', { dependsOn: ['x'] }))).toThrow(
      /cycle: x → y → x/,
    );
    expect(() => supervisor.start('nope')).toThrow(ServiceError);
    try {
      supervisor.info('nope');
    } catch (e) {
      expect(isUnknownService(e)).toBe(true);
    }
  });

  it('denies new services during shutdown', async () => {
    const { supervisor } = setup();
    supervisor.load(idle('early'));
    supervisor.denyNewServices();
    let err: unknown;
    try {
      supervisor.load(idle('late'));
    } catch (e) {
      err = e;
    }
    expect(isShuttingDown(err)).toBe(true);
    expect(() => supervisor.start('early')).toThrow(/denied during shutdown/);
    expect(supervisor.list().map((s) => s.id)).toEqual(['early']);
  });

  it('flips health between healthy and unhealthy, and dependents wait for healthy', async () => {
    const { supervisor, events } = setup();
    let sick: string | undefined = 'starting up';
    supervisor.load(
      idle('h', {
        health: {
          check: async () => {
            if (sick) throw new Error(sick);
          },
          settings: { initialDelayMs: 0, periodMs: 5, timeoutMs: 1000 },
        },
      }),
      idle('dep', { dependsOn: ['h'] }),
    );
    supervisor.start('h', 'dep');
    await waitService(events, 'h', (e) => e.some((x) => x.message === 'Health check failed: starting up'));
    expect(supervisor.info('h').up).toBe(false);
    expect(supervisor.info('dep').state).toBe('Waiting');
    sick = undefined;
    await waitService(events, 'dep', (e) => e.at(-1)!.action === 'RUNNING');
    expect(supervisor.info('h')).toMatchObject({
      state: 'Running',
      up: true,
      health: { healthy: true, unknown: false },
    });
    sick = 'disk full';
    const evs = await waitService(events, 'h', (e) => e.at(-1)!.message === 'Health check failed: disk full');
    expect(evs.at(-1)!.health).toMatchObject({ healthy: false, unknown: false, lastMessage: 'disk full' });
    expect(supervisor.info('h').up).toBe(false);
  });

  it('gives up waiting for a service that will not stop, with a stop-timeout error', async () => {
    const { events, logs } = newSupervisor();
    const supervisor = new Supervisor({ events, logs, stopTimeoutMs: 10 });
    supervisors.push(supervisor);
    supervisor.load({
      id: 'stubborn',
      runner: () =>
        inProcessRunner('stubborn', () => new Promise<void>(() => {}), { gracefulShutdownTimeoutMs: 200 }),
    });
    supervisor.start('stubborn');
    await waitService(events, 'stubborn', (e) => e.at(-1)!.action === 'RUNNING');
    const err = await supervisor.stop('stubborn').catch((e: unknown) => e);
    expect((err as ServiceError).code).toBe('stop-timeout');
    expect((err as Error).message).toContain('stubborn');
    // the runner abandons it after its own grace period, and the service ends
    await waitService(events, 'stubborn', (e) => e.at(-1)!.action === 'FINISHED');
  });

  it('restarts a plugged-in runner that breaks its contract by rejecting', async () => {
    const { supervisor, events } = setup();
    let runs = 0;
    const rogue: Runner = {
      kind: 'containerd',
      toString: () => 'Rogue()',
      run: async (ctx) => {
        ctx.sink('Running', 'rogue started');
        if (++runs === 1) throw new Error('rogue runner fault');
        return { type: 'success' };
      },
    };
    supervisor.load({
      id: 'rogue',
      runner: () => rogue,
      restart: 'UntilSuccess',
      backoff: { delay: () => 1 },
    });
    supervisor.start('rogue');
    const evs = await waitService(events, 'rogue', (e) => e.at(-1)!.action === 'FINISHED');
    expect(evs.some((e) => e.message.includes('rogue runner fault'))).toBe(true);
    expect(runs).toBe(2);
  });

  it('counts a skipped service as up', async () => {
    const { supervisor } = setup();
    supervisor.load({ id: 'absent', runner: () => null }, idle('after', { dependsOn: ['absent'] }));
    supervisor.start('absent', 'after');
    await supervisor.waitFor(['absent', 'after'], { signal: AbortSignal.timeout(10_000) });
    expect(supervisor.info('absent').state).toBe('Skipped');
  });

  it('runs pre and post stages once per start', async () => {
    const { supervisor, events } = setup();
    const stages: string[] = [];
    supervisor.load(
      idle('s', {
        pre: () => void stages.push('pre'),
        post: (_, state) => void stages.push(`post:${state}`),
      }),
    );
    supervisor.start('s');
    await waitService(events, 's', (e) => e.at(-1)!.action === 'RUNNING');
    await supervisor.stop('s');
    expect(stages).toEqual(['pre', 'post:Finished']);
  });

  it('keeps the last 64 events per service', async () => {
    const { supervisor, events } = setup();
    supervisor.load(proc('loop', ['/bin/true'], { backoff: { delay: () => 0 } }));
    supervisor.start('loop');
    await waitService(events, 'loop', (e) => e.length > 80);
    await supervisor.stop('loop');
    expect(supervisor.info('loop').events).toHaveLength(64);
  });

  it('follows a service log from the Logs API side while the service runs', async () => {
    const { supervisor, logs } = setup();
    supervisor.load(
      proc('chatty', node("let i = 0; const t = setInterval(() => { console.log('tick', ++i); }, 5);")),
    );
    supervisor.start('chatty');
    const ac = new AbortController();
    const seen: string[] = [];
    for await (const l of readLines(logs.serviceLog('chatty'), { signal: ac.signal, follow: true })) {
      seen.push(l);
      if (seen.length === 3) ac.abort();
    }
    expect(seen).toEqual(['tick 1', 'tick 2', 'tick 3']);
  });
});
