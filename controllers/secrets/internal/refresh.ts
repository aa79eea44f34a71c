// The renewal wake-up of a certificate controller: one pending timer, re-armed after every pass.
import type { ControllerRuntime } from '../../../src/cosi/controller/index.js';
import type { SecretsClock } from './clock.js';
import { nextRenewalMs } from './leaf.js';

export interface RenewalTimer {
  /** arm replaces the pending wake-up with one at the first half-life among `certs` */
  arm(certs: readonly (string | null | undefined)[]): void;
  /** armIn replaces the pending wake-up with one in `ms` (none for undefined) */
  armIn(ms: number | undefined): void;
  /** stop cancels the pending wake-up; the run loop calls it on the way out */
  stop(): void;
}

/** renewalTimer queues a reconcile at the renewal point, so no certificate outlives its half-life. */
export function renewalTimer(
  rt: Pick<ControllerRuntime, 'queueReconcile'>,
  clock: SecretsClock,
): RenewalTimer {
  let cancel: (() => void) | undefined;
  const stop = () => {
    cancel?.();
    cancel = undefined;
  };
  const armIn = (ms: number | undefined) => {
    stop();
    if (ms !== undefined) cancel = clock.schedule(ms, () => rt.queueReconcile());
  };
  return {
    arm: (certs) => armIn(nextRenewalMs(certs, clock.now())),
    armIn,
    stop,
  };
}
