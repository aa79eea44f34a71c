// Reset on a node: the request is checked against what the block resources say the node holds (refused
// whole, with upstream's status codes, before anything stops), then the Reset sequence stops the services
// and wipes, and the node powers off or reboots, as the request asks — also when the wipe failed, so a
// half-done reset never leaves a node running without its services.
import { ApiError } from '../../api/errors.js';
import type { ResetHost } from '../../api/machine-stateful/index.js';
import type { State } from '../../cosi/state/state.js';
import type { PowerAction } from '../power-action.js';
import type { Sequencer } from '../sequencer/index.js';
import { resetInputs } from './reset.js';
import { planReset, ResetRefused, type ResetRequestLike } from './reset-plan.js';

export interface ResetHostOptions {
  readonly state: State;
  readonly sequencer: Sequencer;
  readonly shutdown: (action: PowerAction) => Promise<void>;
  readonly log: (line: string) => void;
}

export function resetHost(opts: ResetHostOptions): ResetHost {
  return {
    async reset(req, actorId) {
      let plan: ReturnType<typeof planReset>;
      try {
        plan = planReset(req as ResetRequestLike, await resetInputs(opts.state));
      } catch (e) {
        if (!(e instanceof ResetRefused)) throw e;
        throw new ApiError(e.kind === 'request' ? 'invalid-argument' : 'failed-precondition', e.message);
      }
      const what = [...plan.partitions.map((p) => p.label), ...plan.userDisks];
      opts.log(
        `reset: wiping ${what.length ? what.join(', ') : 'nothing'}, then ${plan.reboot ? 'reboot' : 'power off'}`,
      );
      void opts.sequencer
        .run('reset', { actorId, data: plan, force: true })
        .catch((e: unknown) => opts.log(`reset sequence failed: ${(e as Error).message}`))
        .then(() => opts.shutdown(plan.reboot ? 'reboot' : 'poweroff'));
    },
  };
}
