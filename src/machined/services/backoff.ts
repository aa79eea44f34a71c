// Restart backoff: how long a crashed service waits before its next run, growing while it keeps crashing.

export interface Backoff {
  /** delay in ms before restart number `attempt` (1 for the first restart) */
  delay(attempt: number): number;
  /** a run that lasted this long counts as healthy and resets the attempts; default: never */
  readonly resetAfterMs?: number;
}

export interface ExponentialBackoffOptions {
  initialMs?: number;
  factor?: number;
  maxMs?: number;
  resetAfterMs?: number;
}

/**
 * exponentialBackoff: 1 s, 2 s, 4 s … capped at 1 min, and reset after 1 min of running. Upstream
 * waits a flat 5 s; a growing wait keeps a crash loop from flooding the log ring and the CPU.
 */
export function exponentialBackoff(opts: ExponentialBackoffOptions = {}): Backoff {
  const initial = opts.initialMs ?? 1000;
  const factor = opts.factor ?? 2;
  const max = opts.maxMs ?? 60_000;
  return {
    delay: (attempt) => Math.min(max, initial * factor ** Math.max(0, attempt - 1)),
    resetAfterMs: opts.resetAfterMs ?? 60_000,
  };
}
