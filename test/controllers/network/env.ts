// Test helpers for the network controllers: a runtime on in-memory state, and layered spec builders.
import { MachineConfig } from '../../../resources/config/index.js';
import type { Config } from '../../../src/config/index.js';
import { type Controller, Runtime, silentLogger } from '../../../src/cosi/controller/index.js';
import { newInmemState } from '../../../src/cosi/state/inmem/index.js';
import type { State } from '../../../src/cosi/state/state.js';
import { wrapCore } from '../../../src/cosi/state/wrap.js';

const FAST = { initial: 1, multiplier: 1.5, randomization: 0.5, max: 10 };

export interface RuntimeEnv {
  readonly state: State;
  stop(): Promise<void>;
}

/** startRuntime runs the controllers on a fresh in-memory state until stop(). */
export function startRuntime(controllers: readonly Controller[]): RuntimeEnv {
  const state = wrapCore(newInmemState());
  const rt = new Runtime(state, { logger: silentLogger, restartBackoff: FAST });
  for (const c of controllers) rt.register(c);
  const ac = new AbortController();
  const done = rt.run({ signal: ac.signal });
  return {
    state,
    async stop() {
      ac.abort();
      await done;
    },
  };
}

export const machineConfig = (cfg: Config) => MachineConfig.new('config', 'v1alpha1', cfg);
