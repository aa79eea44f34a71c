import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ReconcileQueue } from '../../../../src/cosi/controller/internal/queue.js';

// The queue runs on an injected clock; fake timers make delayed releases deterministic.
let now = 0;
const clock = () => now;
const advance = async (ms: number) => {
  now += ms;
  await vi.advanceTimersByTimeAsync(ms);
};

beforeEach(() => {
  vi.useFakeTimers();
  now = 1_000;
});
afterEach(() => {
  vi.useRealTimers();
});

const signal = () => new AbortController().signal;

describe('ReconcileQueue', () => {
  it('hands keys out in FIFO order and deduplicates puts, keeping the newest value', async () => {
    const q = new ReconcileQueue<string>(clock);
    q.put('a', 'a1');
    q.put('b', 'b1');
    q.put('a', 'a2');
    expect(q.length).toBe(2);
    const first = await q.get(signal());
    const second = await q.get(signal());
    expect([first?.key, first?.value, second?.key, second?.value]).toEqual(['a', 'a2', 'b', 'b1']);
    expect(q.length).toBe(0);
  });

  it('never hands out a key that is being processed; a put meanwhile is parked and re-queued on release', async () => {
    const q = new ReconcileQueue<string>(clock);
    q.put('a', 'v1');
    const item = (await q.get(signal()))!;
    q.put('a', 'v2');
    q.put('b', 'b');
    expect(q.length).toBe(2); // b queued, a parked
    const next = (await q.get(signal()))!;
    expect(next.key).toBe('b');

    let handed: string | undefined;
    const waiting = q.get(signal()).then((i) => {
      handed = i?.value;
      return i;
    });
    await advance(0);
    expect(handed).toBeUndefined(); // 'a' is on hold
    item.release();
    const again = await waiting;
    expect([again?.key, again?.value]).toEqual(['a', 'v2']);
  });

  it('orders by release time: a requeued key waits, later puts of other keys go first', async () => {
    const q = new ReconcileQueue<string>(clock);
    q.put('a', 'a');
    (await q.get(signal()))!.requeue(now + 100);
    q.put('b', 'b');
    expect((await q.get(signal()))?.key).toBe('b');

    let got: string | undefined;
    const waiting = q.get(signal()).then((i) => {
      got = i?.key;
    });
    await advance(99);
    expect(got).toBeUndefined();
    await advance(1);
    await waiting;
    expect(got).toBe('a');
  });

  it('a put keeps the earlier release time: it brings a delayed key forward', async () => {
    const q = new ReconcileQueue<string>(clock);
    q.put('a', 'old');
    (await q.get(signal()))!.requeue(now + 10_000);
    q.put('a', 'new');
    const item = await q.get(signal());
    expect([item?.key, item?.value]).toEqual(['a', 'new']);
  });

  it('requeue never overwrites a newer value, and a parked put is released at once', async () => {
    const q = new ReconcileQueue<string>(clock);
    q.put('a', 'v1');
    const item = (await q.get(signal()))!;
    q.put('a', 'v2'); // parked
    item.requeue(now + 5_000);
    const next = await q.get(signal());
    expect([next?.key, next?.value]).toEqual(['a', 'v2']);
    expect(q.length).toBe(0);
  });

  it('ties on release time keep arrival order', async () => {
    const q = new ReconcileQueue<string>(clock);
    for (const k of ['c', 'a', 'b']) q.put(k, k);
    const order: string[] = [];
    for (let n = 0; n < 3; n++) order.push((await q.get(signal()))!.key);
    expect(order).toEqual(['c', 'a', 'b']);
  });

  it('release after release is ignored', async () => {
    const q = new ReconcileQueue<string>(clock);
    q.put('a', 'a');
    const item = (await q.get(signal()))!;
    item.release();
    item.requeue(now);
    expect(q.length).toBe(0);
  });

  it('get resolves undefined on abort and leaves no timer behind', async () => {
    const q = new ReconcileQueue<string>(clock);
    q.put('a', 'a');
    (await q.get(signal()))!.requeue(now + 60_000);
    const ac = new AbortController();
    const waiting = q.get(ac.signal);
    expect(vi.getTimerCount()).toBe(1);
    ac.abort();
    expect(await waiting).toBeUndefined();
    expect(vi.getTimerCount()).toBe(0);
    expect(await q.get(ac.signal)).toBeUndefined();
  });
});
