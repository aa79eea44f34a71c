// Token bucket: every write or finalizer change of one controller waits here for a token.

/** RateLimit: `rate` tokens per second refill a bucket of `burst`; Infinity disables limiting. */
export interface RateLimit {
  readonly rate: number;
  readonly burst: number;
}

export interface RateLimiter {
  /** wait resolves when a token is reserved; on abort the reservation is returned and it rejects. */
  wait(signal: AbortSignal): Promise<void>;
}

const unlimited: RateLimiter = {
  wait(signal) {
    return signal.aborted ? Promise.reject(signal.reason) : Promise.resolve();
  },
};

export function rateLimiter(limit?: RateLimit, now: () => number = () => performance.now()): RateLimiter {
  if (!limit || limit.rate === Number.POSITIVE_INFINITY) return unlimited;
  const rate = limit.rate / 1000; // tokens per ms
  const burst = Math.max(1, limit.burst);
  let tokens = burst;
  let last = now();
  return {
    wait(signal) {
      if (signal.aborted) return Promise.reject(signal.reason);
      const t = now();
      tokens = Math.min(burst, tokens + (t - last) * rate);
      last = t;
      tokens -= 1; // reserve now; a negative balance is the queue of waiters ahead
      if (tokens >= 0) return Promise.resolve();
      const delay = rate > 0 ? -tokens / rate : Number.POSITIVE_INFINITY;
      return new Promise((resolve, reject) => {
        const done = () => {
          clearTimeout(timer);
          signal.removeEventListener('abort', onAbort);
        };
        const onAbort = () => {
          done();
          tokens += 1;
          reject(signal.reason);
        };
        const timer =
          delay === Number.POSITIVE_INFINITY
            ? undefined
            : setTimeout(() => {
                done();
                resolve();
              }, delay);
        signal.addEventListener('abort', onAbort, { once: true });
      });
    },
  };
}
