import { describe, expect, it } from 'vitest';
import { DEFAULT_BACKOFF, exponentialBackoff } from '../../../../src/cosi/controller/internal/backoff.js';

describe('exponentialBackoff', () => {
  it('follows upstream defaults: 500 ms ×1.5 up to 60 s', () => {
    const b = exponentialBackoff(DEFAULT_BACKOFF, () => 0.5); // the middle of the jitter window
    const seq = Array.from({ length: 14 }, () => Math.round(b.next()));
    expect(seq.slice(0, 4)).toEqual([500, 750, 1125, 1688]);
    expect(Math.max(...seq)).toBe(60_000);
    expect(Math.round(b.next())).toBe(60_000);
    b.reset();
    expect(b.next()).toBe(500);
  });

  it('jitters within ±50 %', () => {
    expect(exponentialBackoff(DEFAULT_BACKOFF, () => 0).next()).toBe(250);
    expect(exponentialBackoff(DEFAULT_BACKOFF, () => 1).next()).toBe(750);
  });
});
