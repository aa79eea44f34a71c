// The sync loop: its pure rules (poll backoff, step or slew request), then the loop itself against chronyd
// with a simulated clock that the recorded requests move.
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import {
  ADJ_ESTERROR,
  ADJ_MAXERROR,
  ADJ_NANO,
  ADJ_OFFSET,
  ADJ_SETOFFSET,
  ADJ_STATUS,
  ADJ_TIMECONST,
  type AdjtimexResult,
  clockGettime,
  STA_DEL,
  STA_INS,
  STA_PLL,
  type Timex,
} from '../../../src/sys/clock.js';
import {
  adjustRequest,
  isStep,
  type Measurement,
  nextPollInterval,
  SpikeDetector,
  Syncer,
} from '../../../src/sys/ntp/index.js';
import { type Chronyd, startChronyd } from './chronyd.js';

const MS = 1_000_000n;
const S = 1_000_000_000n;
const L = { minPoll: 32_000, maxPoll: 2_048_000, retryPoll: 1_000 };
const m = (offsetMs: number, spike = false): Measurement => ({
  clockOffset: BigInt(offsetMs) * MS,
  leap: 0,
  spike,
});

describe('nextPollInterval', () => {
  it('retries in a second without an answer, starts at the minimum, and backs off while close', () => {
    expect(nextPollInterval(0, undefined, L)).toBe(1_000);
    expect(nextPollInterval(64_000, undefined, L)).toBe(1_000);
    expect(nextPollInterval(0, m(10), L)).toBe(32_000);
    expect(nextPollInterval(32_000, m(10), L)).toBe(64_000); // under 25% of the 200 ms aim: double
    expect(nextPollInterval(2_048_000, m(10), L)).toBe(2_048_000); // capped
    expect(nextPollInterval(256_000, m(100), L)).toBe(256_000); // in between: hold
    expect(nextPollInterval(256_000, m(180), L)).toBe(128_000); // over 75%: halve
    expect(nextPollInterval(256_000, m(10, true), L)).toBe(512_000); // a small spike still backs off
    expect(nextPollInterval(256_000, m(300, true), L)).toBe(128_000); // a large spike halves
    expect(nextPollInterval(256_000, m(300), L)).toBe(32_000); // a real large offset: back to the minimum
    expect(nextPollInterval(1_000, m(10), L)).toBe(32_000); // any answer after retries: at least the minimum
  });
});

describe('adjustRequest', () => {
  it('steps beyond 400 ms, with a non-negative sub-second part', () => {
    const r = adjustRequest(-1_250n * MS, 0, 32_000);
    expect(r.modes).toBe(ADJ_SETOFFSET | ADJ_NANO | ADJ_STATUS | ADJ_MAXERROR | ADJ_ESTERROR);
    expect(r.time).toEqual({ sec: -2, usec: 750_000_000 });
    expect(isStep(r)).toBe(true);
    expect(adjustRequest(3_600n * S + 5n, 0, 0).time).toEqual({ sec: 3_600, usec: 5 });
  });

  it('slews up to 400 ms with the PLL, its time constant following the poll interval', () => {
    const r = adjustRequest(400n * MS, 0, 64_000);
    expect(r.modes).toBe(ADJ_OFFSET | ADJ_NANO | ADJ_STATUS | ADJ_TIMECONST | ADJ_MAXERROR | ADJ_ESTERROR);
    expect(r).toMatchObject({ offset: 400_000_000, status: STA_PLL, constant: 2, maxerror: 0, esterror: 0 });
    expect(adjustRequest(-1n, 0, 2_048_000).constant).toBe(7);
    expect(isStep(r)).toBe(false);
  });

  it('passes on leap-second warnings', () => {
    expect(adjustRequest(0n, 1, 32_000).status).toBe(STA_PLL | STA_INS);
    expect(adjustRequest(5n * S, 2, 32_000).status).toBe(STA_DEL);
  });
});

describe('SpikeDetector', () => {
  it('takes the first samples, then flags an offset far outside the jitter', () => {
    const d = new SpikeDetector();
    for (let i = 0; i < 6; i++) expect(d.isSpike({ offset: 0.001 * (i % 2), rtt: 0.05 })).toBe(false);
    expect(d.isSpike({ offset: 0.04, rtt: 0.05 })).toBe(true);
    expect(d.isSpike({ offset: 0.5, rtt: 0.05 })).toBe(false); // larger than the delay: real
  });
});

let chrony: Chronyd;
beforeAll(async () => {
  chrony = await startChronyd();
});
afterAll(async () => {
  await chrony?.stop();
});

function recorder(offset: bigint) {
  const requests: Partial<Timex>[] = [];
  let skew = offset;
  return {
    requests,
    now: () => clockGettime() + skew,
    adjustTime(req: Partial<Timex>): AdjtimexResult {
      requests.push(req);
      if (isStep(req)) skew += BigInt(req.time!.sec) * S + BigInt(req.time!.usec);
      return { state: 'TIME_OK', timex: req as Timex };
    },
  };
}

describe('Syncer against chronyd', () => {
  it('skips a name that does not resolve, steps once, reports the epoch and the sync', async () => {
    const clock = recorder(20n * 60n * S); // 20 minutes fast
    const events: string[] = [];
    const ac = new AbortController();
    onTestFinished(() => ac.abort());
    const synced = new Promise<void>((resolve) => {
      const syncer = new Syncer({
        servers: ['no-such-host.invalid', '127.0.0.1'],
        port: chrony.port,
        now: clock.now,
        adjustTime: clock.adjustTime,
        onEpochChange: () => events.push('epoch'),
        onSynced: () => {
          events.push('synced');
          resolve();
        },
      });
      void syncer.run(ac.signal);
    });
    await synced;
    expect(events).toEqual(['epoch', 'synced']);
    expect(clock.requests).toHaveLength(1);
    expect(Math.abs(clock.requests[0]!.time!.sec + 20 * 60)).toBeLessThanOrEqual(2);
  });

  it('moves to a new server list at once, and stops when aborted', async () => {
    const clock = recorder(0n);
    const ac = new AbortController();
    onTestFinished(() => ac.abort());
    let synced!: () => void;
    const first = new Promise<void>((r) => {
      synced = r;
    });
    // chronyd listens on 127.0.0.1 only, so 127.0.0.2 never answers; the ten-minute retry means only
    // setTimeServers can bring the sync forward within the test's time
    const syncer = new Syncer({
      servers: ['127.0.0.2'],
      port: chrony.port,
      queryTimeoutMs: 300,
      retryPollMs: 600_000,
      now: clock.now,
      adjustTime: clock.adjustTime,
      onSynced: () => synced(),
    });
    const done = syncer.run(ac.signal);
    syncer.setTimeServers(['127.0.0.1']);
    await first;
    expect(syncer.synced).toBe(true);
    expect(isStep(clock.requests[0]!)).toBe(false); // the clock was right: a slew
    ac.abort();
    await done; // resolves, never throws, once aborted
  });
});
