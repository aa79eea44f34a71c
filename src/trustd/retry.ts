// The pace of a worker's requests to trustd while no control plane answers: 1 s, doubling, at most 30 s.
// Upstream retries for a minute (from 1 s, exponentially) and then lets its controller restart with
// backoff, so it too asks forever; here one loop does both, without a controller failure a minute.

export interface RetrySettings {
  readonly initialMs: number;
  readonly maxMs: number;
}

export const DEFAULT_RETRY: RetrySettings = Object.freeze({ initialMs: 1_000, maxMs: 30_000 });

/** retryDelayMs is the wait after the `attempt`-th failure (0-based), with up to 10 % jitter added. */
export function retryDelayMs(
  attempt: number,
  s: RetrySettings = DEFAULT_RETRY,
  random = Math.random,
): number {
  const base = Math.min(s.initialMs * 2 ** Math.min(attempt, 30), s.maxMs);
  return Math.round(base * (1 + 0.1 * random()));
}
