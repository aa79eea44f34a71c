import { describe, expect, it } from 'vitest';
import { exponentialBackoff } from '../../../src/machined/services/backoff.js';
import { restartWording, shouldRestart } from '../../../src/machined/services/restart.js';

describe('restart policies', () => {
  it('decide like upstream restart runner types', () => {
    expect([shouldRestart('Forever', true), shouldRestart('Forever', false)]).toEqual([true, true]);
    expect([shouldRestart('UntilSuccess', true), shouldRestart('UntilSuccess', false)]).toEqual([
      false,
      true,
    ]);
    expect([shouldRestart('Once', true), shouldRestart('Once', false)]).toEqual([false, false]);
    expect(restartWording('Forever')).toBe('forever');
  });
});

describe('exponentialBackoff', () => {
  it('doubles from 1 s up to its cap', () => {
    const b = exponentialBackoff();
    expect([1, 2, 3, 4, 7, 20].map((n) => b.delay(n))).toEqual([1000, 2000, 4000, 8000, 60_000, 60_000]);
    expect(b.resetAfterMs).toBe(60_000);
  });

  it('takes its own numbers', () => {
    const b = exponentialBackoff({ initialMs: 5, factor: 3, maxMs: 100, resetAfterMs: 7 });
    expect([1, 2, 3, 4].map((n) => b.delay(n))).toEqual([5, 15, 45, 100]);
    expect(b.resetAfterMs).toBe(7);
  });
});
