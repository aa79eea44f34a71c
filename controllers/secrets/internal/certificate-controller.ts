// The run loop every certificate-holding controller shares: reconcile on each wake-up, then
// re-arm one timer at the earliest half-life among the certificates it now holds.
import {
  type Controller,
  type ControllerRuntime,
  defineController,
  type Input,
  type Output,
} from '../../../src/cosi/controller/index.js';
import type { SecretsClock } from './clock.js';
import { renewalTimer } from './refresh.js';

export interface CertificateControllerSettings {
  readonly name: string;
  readonly inputs: readonly Input[];
  readonly outputs: readonly Output[];
  readonly clock: SecretsClock;
  /** reconcile writes the outputs and returns the PEM certificates they hold (for renewal) */
  reconcile(
    rt: ControllerRuntime,
    clock: SecretsClock,
    signal: AbortSignal,
  ): Promise<readonly (string | null | undefined)[]>;
}

/** certificateController defines a controller whose certificates are renewed at half-life. */
export function certificateController(s: CertificateControllerSettings): Controller {
  return defineController({
    name: s.name,
    inputs: [...s.inputs],
    outputs: [...s.outputs],
    async run(rt, { signal }) {
      const timer = renewalTimer(rt, s.clock);
      try {
        for await (const _ of rt.events(signal)) {
          timer.arm(await s.reconcile(rt, s.clock, signal));
          rt.resetBackoff();
        }
      } finally {
        timer.stop();
      }
    },
  });
}
