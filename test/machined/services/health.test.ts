import { describe, expect, it } from 'vitest';
import { runHealth } from '../../../src/machined/services/health.js';
import type { HealthStatus } from '../../../src/machined/services/state.js';

describe('runHealth', () => {
  it('reports only changes of verdict, and a hung check as timed out', async () => {
    const verdicts = ['ok', 'ok', 'bad', 'bad', 'hang', 'ok'];
    let i = 0;
    const ac = new AbortController();
    const seen: HealthStatus[] = [];
    await runHealth(
      async () => {
        const v = verdicts[i++];
        if (v === undefined) return ac.abort();
        if (v === 'bad') throw new Error('bad');
        if (v === 'hang') await new Promise(() => {});
      },
      { initialDelayMs: 0, periodMs: 0, timeoutMs: 20 },
      (h) => seen.push(h),
      { signal: ac.signal },
    );
    expect(seen.map((h) => [h.healthy, h.lastMessage])).toEqual([
      [true, ''],
      [false, 'bad'],
      [false, 'health check timed out'],
      [true, ''],
    ]);
    expect(seen.every((h) => !h.unknown && h.lastChange instanceof Date)).toBe(true);
  });
});
