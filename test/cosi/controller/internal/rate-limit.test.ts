import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { rateLimiter } from '../../../../src/cosi/controller/internal/rate-limit.js';

let now = 0;
const clock = () => now;
const advance = async (ms: number) => {
  now += ms;
  await vi.advanceTimersByTimeAsync(ms);
};

beforeEach(() => {
  vi.useFakeTimers();
  now = 0;
});
afterEach(() => {
  vi.useRealTimers();
});

/** settled tracks whether a promise has resolved yet. */
const track = (p: Promise<void>) => {
  const t = { done: false, p };
  void p.then(() => {
    t.done = true;
  });
  return t;
};

describe('rateLimiter', () => {
  it('is a no-op without a limit (but still honours an aborted signal)', async () => {
    const l = rateLimiter(undefined, clock);
    const ac = new AbortController();
    for (let i = 0; i < 1000; i++) await l.wait(ac.signal);
    ac.abort(new Error('stop'));
    await expect(l.wait(ac.signal)).rejects.toThrow('stop');
  });

  it('lets a burst through at once, then one token per 1/rate', async () => {
    const l = rateLimiter({ rate: 10, burst: 2 }, clock); // one token per 100 ms
    const s = new AbortController().signal;
    await l.wait(s);
    await l.wait(s);
    const third = track(l.wait(s));
    const fourth = track(l.wait(s));
    await advance(99);
    expect(third.done).toBe(false);
    await advance(1);
    expect(third.done).toBe(true);
    expect(fourth.done).toBe(false);
    await advance(100);
    expect(fourth.done).toBe(true);
  });

  it('refills up to the burst while idle', async () => {
    const l = rateLimiter({ rate: 10, burst: 3 }, clock);
    const s = new AbortController().signal;
    for (let i = 0; i < 3; i++) await l.wait(s);
    await advance(10_000); // long idle: back to 3 tokens, not 100
    for (let i = 0; i < 3; i++) await l.wait(s);
    const next = track(l.wait(s));
    await advance(0);
    expect(next.done).toBe(false);
    await advance(100);
    expect(next.done).toBe(true);
  });

  it('an aborted wait returns its reservation and clears its timer', async () => {
    const l = rateLimiter({ rate: 10, burst: 1 }, clock);
    const s = new AbortController().signal;
    await l.wait(s);
    const ac = new AbortController();
    const waiting = l.wait(ac.signal);
    expect(vi.getTimerCount()).toBe(1);
    ac.abort(new Error('gone'));
    await expect(waiting).rejects.toThrow('gone');
    expect(vi.getTimerCount()).toBe(0);
    // the returned token is available again after one interval, not two
    const next = track(l.wait(s));
    await advance(100);
    expect(next.done).toBe(true);
  });
});
