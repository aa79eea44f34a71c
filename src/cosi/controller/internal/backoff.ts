// Exponential backoff with jitter, the same curve as upstream's restart backoff (never gives up).

export interface BackoffSettings {
  /** first interval, ms */
  readonly initial: number;
  readonly multiplier: number;
  /** jitter: each interval is drawn from current × (1 ± randomization) */
  readonly randomization: number;
  /** cap on the un-jittered interval, ms */
  readonly max: number;
}

/** Upstream defaults: 500 ms, ×1.5, ±50 %, at most 60 s. */
export const DEFAULT_BACKOFF: BackoffSettings = Object.freeze({
  initial: 500,
  multiplier: 1.5,
  randomization: 0.5,
  max: 60_000,
});

export interface Backoff {
  /** next returns the interval to wait now and grows the next one. */
  next(): number;
  reset(): void;
}

export function exponentialBackoff(
  settings: BackoffSettings = DEFAULT_BACKOFF,
  random = Math.random,
): Backoff {
  let current = settings.initial;
  return {
    next() {
      const delta = settings.randomization * current;
      const interval = current - delta + random() * (2 * delta);
      current = current >= settings.max / settings.multiplier ? settings.max : current * settings.multiplier;
      return interval;
    },
    reset() {
      current = settings.initial;
    },
  };
}
