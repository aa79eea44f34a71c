// Abortable waiting: every timer and listener created here is removed when the wait ends, either way.

/** sleep resolves true after `ms`, or false as soon as any signal aborts. */
export function sleep(ms: number, ...signals: readonly AbortSignal[]): Promise<boolean> {
  if (signals.some((s) => s.aborted)) return Promise.resolve(false);
  return new Promise((resolve) => {
    const done = (elapsed: boolean) => {
      clearTimeout(timer);
      for (const s of signals) s.removeEventListener('abort', onAbort);
      resolve(elapsed);
    };
    const onAbort = () => done(false);
    const timer = setTimeout(() => done(true), Math.max(0, ms));
    for (const s of signals) s.addEventListener('abort', onAbort, { once: true });
  });
}

/** onAbort calls fn once when the signal aborts (at once if it already has); the result unsubscribes. */
export function onAbort(signal: AbortSignal, fn: () => void): () => void {
  if (signal.aborted) {
    fn();
    return () => {};
  }
  signal.addEventListener('abort', fn, { once: true });
  return () => signal.removeEventListener('abort', fn);
}

/** throwIfAborted rejects with the first aborted signal's reason. */
export function throwIfAborted(...signals: readonly AbortSignal[]): void {
  for (const s of signals) s.throwIfAborted();
}
