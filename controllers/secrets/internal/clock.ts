// The time source of the secrets controllers: the current time plus a way to be woken later.
// Injected through each controller factory, so tests can move time and fire timers by hand.
import { type Clock, systemClock } from '../../../src/pki/index.js';

export interface SecretsClock {
  readonly now: Clock;
  /** schedule calls fn after ms milliseconds; the returned function cancels it */
  schedule(ms: number, fn: () => void): () => void;
}

// setTimeout keeps at most 2^31-1 ms; a longer wait fires early, finds nothing due and re-arms
const MAX_TIMER_MS = 2 ** 31 - 1;

/** systemSecretsClock is wall time and unref'd timers, so a pending renewal never holds the process. */
export const systemSecretsClock: SecretsClock = {
  now: systemClock,
  schedule(ms, fn) {
    const t = setTimeout(fn, Math.min(Math.max(ms, 0), MAX_TIMER_MS));
    t.unref();
    return () => clearTimeout(t);
  },
};

/** SecretsControllerOptions is what every secrets controller factory takes. */
export interface SecretsControllerOptions {
  readonly clock?: SecretsClock;
}
