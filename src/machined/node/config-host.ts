// The node side of ApplyConfiguration: the active config, its resource, the file on the state directory,
// try-mode rollback (to the config active before the try), and the moment a maintenance-mode node receives its first config.
import {
  CONFIG_NAMESPACE,
  MACHINE_CONFIG_ID,
  MachineConfig,
  YAML_SPEC_ANNOTATION,
} from '../../../resources/config/index.js';
import type { ApplyEffect, ConfigHost } from '../../api/machine-stateful/index.js';
import { type Config, encode, v1alpha1Of } from '../../config/index.js';
import type { State } from '../../cosi/state/state.js';
import { persistConfig } from './config-store.js';

export const CONFIG_OWNER = 'machined.ConfigHost';

export interface NodeConfigHostOptions {
  readonly state: State;
  readonly stateDir: string;
  readonly validationMode: 'container' | 'metal';
  /** the config acquired at boot, if any */
  readonly initial?: Config;
  /** a change that needs a reboot asks for one here */
  readonly reboot: (actorId: string) => void;
  readonly log: (line: string) => void;
}

export interface NodeConfigHost extends ConfigHost {
  /** resolves with the first config a maintenance-mode node receives */
  readonly received: Promise<Config>;
  /** activate writes the MachineConfig resource every controller watches */
  activate(cfg: Config): Promise<void>;
  /** close cancels a pending try-mode rollback */
  close(): void;
  /**
   * adopt takes a config a source found after the node started (STATE, once its partition is mounted) as
   * if it had been applied: a node still in maintenance mode leaves it; false when a config was already there
   */
  adopt(cfg: Config, source: string): boolean;
}

export function nodeConfigHost(opts: NodeConfigHostOptions): NodeConfigHost {
  const { state, stateDir, log } = opts;
  let active = opts.initial;
  let rollback: NodeJS.Timeout | undefined;
  let rollbackTo: Config | undefined;
  let receive!: (cfg: Config) => void;
  const received = new Promise<Config>((r) => {
    receive = r;
  });

  const activate = async (cfg: Config) => {
    active = cfg;
    await writeMachineConfig(cfg);
  };
  const writeMachineConfig = async (cfg: Config) => {
    await state.modify(
      MachineConfig.new(CONFIG_NAMESPACE, MACHINE_CONFIG_ID, cfg),
      (r) => {
        // the resource carries the config's bytes, as a client reading it back must see the file itself
        r.spec = { ...cfg, text: encode(cfg) };
        r.metadata.annotations.set(YAML_SPEC_ANNOTATION, '1');
      },
      { owner: CONFIG_OWNER },
    );
  };
  const cancelRollback = () => {
    clearTimeout(rollback);
    rollback = undefined;
    rollbackTo = undefined;
  };

  return {
    validationMode: opts.validationMode,
    maintenance: () => active === undefined,
    active: () => active,
    received,
    activate,
    close: cancelRollback,
    adopt(cfg, source) {
      if (active !== undefined) return false;
      active = cfg;
      log(`config: loaded from ${source}`);
      receive(cfg);
      return true;
    },
    async apply(cfg: Config, effect: ApplyEffect, { actorId, tryTimeoutMs }) {
      const first = active === undefined;
      if (effect !== 'try') cancelRollback(); // any other apply ends a pending try, as upstream
      switch (effect) {
        case 'staged':
          persistConfig(stateDir, encode(cfg));
          log('config: staged for the next boot');
          return;
        case 'reboot':
          persistConfig(stateDir, encode(cfg));
          log('config: applied, rebooting to take effect');
          opts.reboot(actorId);
          return;
        case 'try': {
          // revert to what was active before the first pending try, not to a config staged since
          const before = rollbackTo ?? active;
          await activate(cfg);
          log(`config: trying the new config for ${tryTimeoutMs} ms`);
          clearTimeout(rollback);
          rollbackTo = before;
          rollback = setTimeout(() => {
            const back = rollbackTo;
            cancelRollback();
            if (!back) return;
            log('config: try timed out, rolling back');
            activate(back).catch((e: unknown) => log(`config: rollback failed: ${(e as Error).message}`));
          }, tryTimeoutMs);
          return;
        }
        case 'no-reboot':
          if (first && !completeForBoot(cfg)) {
            // as upstream: a config a node cannot boot from (network documents alone, say) applies at
            // once and the node stays in maintenance mode, so a first boot can fix its network first
            await writeMachineConfig(cfg);
            log(
              'config: not complete for boot (no v1alpha1 machine section): applied, staying in maintenance mode',
            );
            return;
          }
          persistConfig(stateDir, encode(cfg));
          if (first) {
            // the boot path activates it once maintenance mode has ended
            active = cfg;
            log('config: received in maintenance mode');
            receive(cfg);
            return;
          }
          await activate(cfg);
          log('config: applied without a reboot');
          return;
      }
    },
  };
}

/** completeForBoot: the config has the v1alpha1 document's machine section a node boots from. */
export const completeForBoot = (cfg: Config): boolean => {
  const v1 = v1alpha1Of(cfg);
  return v1 !== undefined && v1.machine !== undefined;
};
