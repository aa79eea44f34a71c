// time.SyncController on a real runtime against a real chronyd; the clock is a simulated one that the
// recording adjustTime moves, so this host's clock is never touched.
import { createSocket } from 'node:dgram';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { syncController, timeSettingsOf } from '../../../controllers/time/index.js';
import { MachineConfig } from '../../../resources/config/index.js';
import { TIME_SERVER_ID, TimeServerStatus } from '../../../resources/network/index.js';
import { TIME_STATUS_ID, TimeStatus, type TimeStatusSpec } from '../../../resources/time/index.js';
import type { Config } from '../../../src/config/index.js';
import { assertResource } from '../../../src/cosi/testing/assert-resources.js';
import { ADJ_SETOFFSET, type AdjtimexResult, clockGettime, type Timex } from '../../../src/sys/clock.js';
import { type Chronyd, startChronyd } from '../../sys/ntp/chronyd.js';
import { startRuntime } from '../secrets/env.js';

const S = 1_000_000_000n;

let chrony: Chronyd;
beforeAll(async () => {
  chrony = await startChronyd();
});
afterAll(async () => {
  await chrony?.stop();
});

/** a clock that starts `offset` wrong and that the recorded adjtimex requests step */
function simulatedClock(offset: bigint) {
  const requests: Partial<Timex>[] = [];
  const waiters = new Set<() => void>();
  let skew = offset;
  return {
    requests,
    now: () => clockGettime() + skew,
    adjustTime(req: Partial<Timex>): AdjtimexResult {
      requests.push(req);
      if ((req.modes ?? 0) & ADJ_SETOFFSET) skew += BigInt(req.time!.sec) * S + BigInt(req.time!.usec);
      for (const w of waiters) w();
      return { state: 'TIME_OK', timex: { ...req } as Timex };
    },
    /** until resolves once a recorded request passes `pred`, failing after a generous bound */
    until(pred: (r: Partial<Timex>) => boolean, timeoutMs = 15_000): Promise<void> {
      return new Promise<void>((resolve, reject) => {
        const check = () => {
          if (!requests.some(pred)) return;
          waiters.delete(check);
          clearTimeout(timer);
          resolve();
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`no such adjtimex request among ${JSON.stringify(requests)}`));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
  };
}

const v1 = (machine: Record<string, unknown>): Config =>
  ({
    documents: [{ kind: 'v1alpha1', spec: { version: 'v1alpha1', machine }, lines: {} }],
  }) as unknown as Config;
const timeSync = (spec: Record<string, unknown>): Config =>
  ({
    documents: [
      {
        kind: 'TimeSyncConfig',
        spec: { apiVersion: 'v1alpha1', kind: 'TimeSyncConfig', ...spec },
        lines: {},
      },
    ],
  }) as unknown as Config;

const servers = (...ntpServers: string[]) => TimeServerStatus.new('network', TIME_SERVER_ID, { ntpServers });
const status = (state: Parameters<typeof assertResource>[0], want: TimeStatusSpec, signal: AbortSignal) =>
  assertResource(state, TimeStatus, TIME_STATUS_ID, (r) => expect(r.spec).toEqual(want), { signal });

describe('timeSettingsOf', () => {
  it('reads the switch and boot timeout from either generation of the config', () => {
    expect(timeSettingsOf(undefined)).toEqual({ disabled: false, bootTimeoutMs: 0 });
    expect(timeSettingsOf(v1({}))).toEqual({ disabled: false, bootTimeoutMs: 0 });
    expect(timeSettingsOf(v1({ time: { disabled: true, bootTimeout: '2m' } }))).toEqual({
      disabled: true,
      bootTimeoutMs: 120_000,
    });
    expect(timeSettingsOf(timeSync({ enabled: false, bootTimeout: '1m30s' }))).toEqual({
      disabled: true,
      bootTimeoutMs: 90_000,
    });
  });
});

describe('time.SyncController', () => {
  it('steps a clock an hour slow, counts the epoch, then slews', async ({ signal }) => {
    const clock = simulatedClock(-3_600n * S);
    const env = startRuntime([
      syncController({
        adjustTime: clock.adjustTime,
        syncer: { port: chrony.port, now: clock.now, minPollMs: 100, maxPollMs: 400, queryTimeoutMs: 2_000 },
      }),
    ]);
    onTestFinished(env.stop);
    await env.state.create(servers('127.0.0.1'));
    await status(env.state, { synced: true, epoch: 1, syncDisabled: false }, signal);
    const step = clock.requests[0]!;
    expect(step.modes! & ADJ_SETOFFSET).toBeTruthy();
    expect(Math.abs(step.time!.sec - 3_600)).toBeLessThanOrEqual(2);
    // the next polls find the clock right and slew it, without a new epoch
    await clock.until((r) => ((r.modes ?? 0) & ADJ_SETOFFSET) === 0);
    expect(clock.requests.filter((r) => (r.modes ?? 0) & ADJ_SETOFFSET)).toHaveLength(1);
    const st = await status(env.state, { synced: true, epoch: 1, syncDisabled: false }, signal);
    expect(st.metadata.owner).toBe('time.SyncController');
  });

  it('is not synced without an answer, until the boot timeout passes', async ({ signal }) => {
    const silent = createSocket('udp4');
    await new Promise<void>((resolve) => silent.bind(0, '127.0.0.1', resolve));
    onTestFinished(() => new Promise<void>((resolve) => silent.close(() => resolve())));
    const clock = simulatedClock(0n);
    const env = startRuntime([
      syncController({
        adjustTime: clock.adjustTime,
        syncer: { port: silent.address().port, queryTimeoutMs: 200 },
      }),
    ]);
    onTestFinished(env.stop);
    await env.state.create(servers('127.0.0.1'));
    await status(env.state, { synced: false, epoch: 0, syncDisabled: false }, signal);
    // then a config with a boot timeout: the wait ends without a sync, and the clock was never touched
    await env.state.create(MachineConfig.new('config', 'v1alpha1', timeSync({ bootTimeout: '300ms' })));
    await status(env.state, { synced: true, epoch: 0, syncDisabled: false }, signal);
    expect(clock.requests).toEqual([]);
  });

  it('switches off when the config disables sync, and in container mode', async ({ signal }) => {
    const clock = simulatedClock(-3_600n * S);
    const env = startRuntime([
      syncController({ adjustTime: clock.adjustTime, syncer: { port: chrony.port, now: clock.now } }),
    ]);
    onTestFinished(env.stop);
    await env.state.create(MachineConfig.new('config', 'v1alpha1', v1({ time: { disabled: true } })));
    await env.state.create(servers('127.0.0.1'));
    await status(env.state, { synced: true, epoch: 0, syncDisabled: true }, signal);
    expect(clock.requests).toEqual([]);

    const container = startRuntime([syncController({ adjustTime: clock.adjustTime, container: true })]);
    onTestFinished(container.stop);
    await container.state.create(servers('127.0.0.1'));
    await status(container.state, { synced: true, epoch: 0, syncDisabled: true }, signal);
    expect(clock.requests).toEqual([]);
  });
});
