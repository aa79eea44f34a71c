// A polling condition, as upstream's conditions.PollingCondition: an assertion tried at once and then once
// per interval (each try bounded by the interval) until it holds or does not apply; it describes itself
// as `<description>: <state>`, the state being `...` before the first verdict, `OK`, `SKIP` or what the
// last try found wrong.
import { setTimeout as sleep } from 'node:timers/promises';
import { errorText } from './error-text.js';
import { DEADLINE } from './go-format.js';

/** Verdict is one try's outcome; `fail` carries the text the progress line shows. */
export type Verdict =
  | { readonly kind: 'ok' }
  | { readonly kind: 'skip' }
  | { readonly kind: 'fail'; readonly reason: string };

export const OK: Verdict = { kind: 'ok' };
export const SKIP: Verdict = { kind: 'skip' };
/** verdictOf turns a pure check's finding (a reason, or none) into a verdict. */
export const verdictOf = (reason: string | undefined): Verdict =>
  reason === undefined ? OK : { kind: 'fail', reason };

/** Assertion is one try; a rejection counts as a failure worded by the error (error-text.ts). */
export type Assertion = (signal: AbortSignal) => Promise<Verdict>;

export interface Condition {
  /** `<description>: <state>` */
  toString(): string;
  /** resolves once the assertion holds or is skipped; rejects with the signal's reason when it aborts */
  wait(signal: AbortSignal): Promise<void>;
}

const stateText = (v: Verdict | undefined): string => {
  if (!v) return '...';
  if (v.kind === 'ok') return 'OK';
  if (v.kind === 'skip') return 'SKIP';
  return v.reason;
};

/**
 * tryOnce runs one try bounded by the interval. A try cut short, by its bound or by the end of the whole
 * wait, reads as Go's context deadline; the caller then sees whether the whole wait is over.
 */
async function tryOnce(assertion: Assertion, signal: AbortSignal, intervalMs: number): Promise<Verdict> {
  const bound = AbortSignal.any([signal, AbortSignal.timeout(intervalMs)]);
  let stop = () => {};
  // a read that does not heed its signal still ends the try at its bound
  const cut = new Promise<never>((_, reject) => {
    stop = () => reject(bound.reason);
    bound.addEventListener('abort', stop, { once: true });
  });
  try {
    return await Promise.race([assertion(bound), cut]);
  } catch (e) {
    if (bound.aborted) return { kind: 'fail', reason: DEADLINE };
    return { kind: 'fail', reason: errorText(e) };
  } finally {
    bound.removeEventListener('abort', stop);
  }
}

export function pollingCondition(description: string, assertion: Assertion, intervalMs: number): Condition {
  let last: Verdict | undefined;
  return {
    toString: () => `${description}: ${stateText(last)}`,
    async wait(signal) {
      for (;;) {
        signal.throwIfAborted();
        const started = Date.now();
        last = await tryOnce(assertion, signal, intervalMs);
        if (last.kind !== 'fail') return;
        // the next try on the interval's next tick, as a Go ticker (at once when this one took longer)
        const rest = intervalMs - (Date.now() - started);
        if (rest > 0) await sleep(rest, undefined, { signal }).catch(() => signal.throwIfAborted());
      }
    },
  };
}
