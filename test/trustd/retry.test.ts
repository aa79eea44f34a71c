import { describe, expect, it } from 'vitest';
import { DEFAULT_RETRY, retryDelayMs } from '../../src/trustd/index.js';

describe('the pace of retries while no control plane answers', () => {
  it('starts at 1 s, doubles, and never waits more than 30 s (+10 % jitter)', () => {
    const none = () => 0;
    expect([0, 1, 2, 3, 4, 5, 6, 100].map((n) => retryDelayMs(n, DEFAULT_RETRY, none))).toEqual([
      1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000, 30_000,
    ]);
    expect(retryDelayMs(0, DEFAULT_RETRY, () => 0.999)).toBeLessThanOrEqual(1_100);
    expect(retryDelayMs(50, DEFAULT_RETRY, () => 0.999)).toBeLessThanOrEqual(33_000);
  });
});
