import { describe, expect, it } from 'vitest';
import { ExponentialBackoff } from '../../../src/cosi/api/backoff.js';

describe('ExponentialBackoff', () => {
  it('grows by the multiplier up to the cap, and starts over after reset', () => {
    const b = new ExponentialBackoff({ initialMs: 100, multiplier: 2, maxMs: 500, randomization: 0 });
    expect([b.next(), b.next(), b.next(), b.next(), b.next()]).toEqual([100, 200, 400, 500, 500]);
    b.reset();
    expect(b.next()).toBe(100);
  });

  it('spreads each delay within the randomization band', () => {
    const b = new ExponentialBackoff({ initialMs: 1000, multiplier: 1, randomization: 0.5 });
    for (let i = 0; i < 50; i++) {
      const d = b.next()!;
      expect(d).toBeGreaterThanOrEqual(500);
      expect(d).toBeLessThanOrEqual(1500);
    }
  });

  it('gives up once the elapsed budget is spent, unless the budget is 0', () => {
    let now = 0;
    const b = new ExponentialBackoff({ initialMs: 10, randomization: 0, maxElapsedMs: 1000 }, () => now);
    expect(b.next()).toBe(10);
    now = 1001;
    expect(b.next()).toBeUndefined();
    b.reset();
    expect(b.next()).toBe(10);
    const forever = new ExponentialBackoff({ randomization: 0, maxElapsedMs: 0 }, () => now);
    now = Number.MAX_SAFE_INTEGER;
    expect(forever.next()).toBe(500);
  });
});
