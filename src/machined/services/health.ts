// Health checks: a function probed periodically while a service runs; verdict changes are reported.
import { setTimeout as delay } from 'node:timers/promises';
import type { HealthStatus } from './state.js';

/** HealthCheck resolves when healthy and throws (with a reason) when not. */
export type HealthCheck = (signal: AbortSignal) => Promise<void>;

export interface HealthSettings {
  initialDelayMs: number;
  periodMs: number;
  timeoutMs: number;
}

/** DEFAULT_HEALTH_SETTINGS are upstream's: 1 s initial delay, every 5 s, 500 ms per check. */
export const DEFAULT_HEALTH_SETTINGS: HealthSettings = {
  initialDelayMs: 1000,
  periodMs: 5000,
  timeoutMs: 500,
};

/**
 * runHealth probes until the signal aborts, calling onChange whenever the verdict (or its message)
 * changes. It never throws: a check that throws or times out is an unhealthy verdict.
 */
export async function runHealth(
  check: HealthCheck,
  settings: HealthSettings,
  onChange: (h: HealthStatus) => void,
  { signal }: { signal: AbortSignal },
): Promise<void> {
  let last: HealthStatus | undefined;
  try {
    await delay(settings.initialDelayMs, undefined, { signal });
    for (;;) {
      const deadline = new AbortController();
      const timer = setTimeout(() => deadline.abort(new Error('health check timed out')), settings.timeoutMs);
      const probe = AbortSignal.any([signal, deadline.signal]);
      let message = '';
      try {
        await untilAborted(
          Promise.resolve().then(() => check(probe)),
          probe,
        );
      } catch (e) {
        message = deadline.signal.aborted ? 'health check timed out' : String((e as Error)?.message ?? e);
      } finally {
        clearTimeout(timer);
      }
      if (signal.aborted) return;
      const healthy = message === '';
      if (!last || last.healthy !== healthy || last.lastMessage !== message) {
        last = { unknown: false, healthy, lastMessage: message, lastChange: new Date() };
        onChange(last);
      }
      await delay(settings.periodMs, undefined, { signal });
    }
  } catch (e) {
    if (!signal.aborted) throw e;
  }
}

/** untilAborted settles with the promise, or rejects once the signal aborts (a hung check must not hang us). */
function untilAborted<T>(p: Promise<T>, signal: AbortSignal): Promise<T> {
  let onAbort = (): void => {};
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(signal.reason);
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
  });
  return Promise.race([p, aborted]).finally(() => signal.removeEventListener('abort', onAbort));
}
