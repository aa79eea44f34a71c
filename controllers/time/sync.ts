// time.SyncController: runs the NTP sync loop against the servers in effect and publishes TimeStatus.
import {
  MACHINE_CONFIG_ID,
  MachineConfig,
  type MachineConfigSpec,
} from '../../resources/config/machine-config.js';
import { TIME_SERVER_ID, TimeServerStatus } from '../../resources/network/index.js';
import { TIME_STATUS_ID, TimeStatus, type TimeStatusSpec } from '../../resources/time/index.js';
import { accessors } from '../../src/config/index.js';
import { parseDuration } from '../../src/config/validate/formats.js';
import { type Controller, defineController, input, output } from '../../src/cosi/controller/index.js';
import { type AdjustTime, Syncer, type SyncerOptions } from '../../src/sys/ntp/index.js';
import { configOf } from '../config/config-of.js';

/** SyncerLike is what the controller needs of a sync loop (the real one is src/sys/ntp's Syncer). */
export interface SyncerLike {
  run(signal: AbortSignal): Promise<void>;
  setTimeServers(servers: readonly string[]): void;
}

export interface SyncControllerOptions {
  /** applies corrections to the clock; machined passes src/sys/clock's adjtimex, tests a recorder */
  adjustTime: AdjustTime;
  /** container mode: the host owns the clock, so sync is off (upstream's V1Alpha1Mode container) */
  container?: boolean;
  /** monotonic ms (performance.now) the boot timeout counts from; default the controller's first run */
  bootTimeMs?: number;
  /** settings for every syncer made (port, poll bounds); tests point them at a local server */
  syncer?: Partial<Omit<SyncerOptions, 'servers' | 'adjustTime' | 'onSynced' | 'onEpochChange'>>;
  newSyncer?: (opts: SyncerOptions) => SyncerLike;
}

/** TimeSettings is what the controller reads of the machine config. */
export interface TimeSettings {
  readonly disabled: boolean;
  /** ms; 0 waits for a real sync however long it takes, as upstream does when none is set */
  readonly bootTimeoutMs: number;
}

/** syncController makes a time.SyncController that corrects the clock through `adjustTime`. */
export function syncController(opts: SyncControllerOptions): Controller {
  let bootTimeMs = opts.bootTimeMs; // kept across restarts, like upstream's controller field
  return defineController({
    name: 'time.SyncController',
    inputs: [
      input(TimeServerStatus, { id: TIME_SERVER_ID, kind: 'weak' }),
      input(MachineConfig, { id: MACHINE_CONFIG_ID, kind: 'weak' }),
    ],
    outputs: [output(TimeStatus, 'exclusive')],
    async run(rt, { signal, logger }) {
      bootTimeMs ??= performance.now();
      let running: { syncer: SyncerLike; stop: AbortController; done: Promise<void> } | undefined;
      let generation = 0;
      let syncedBy = -1; // the generation whose syncer reported its first sync
      let epoch = 0;
      let timeSynced = false;
      let timer: NodeJS.Timeout | undefined;
      let timerAt = 0;
      const stopSyncer = async () => {
        if (!running) return;
        running.stop.abort();
        await running.done;
        running = undefined;
      };
      try {
        for await (const _ of rt.events(signal)) {
          if (syncedBy === generation && running) timeSynced = true;

          const servers = await rt.getOrNull(TimeServerStatus, TIME_SERVER_ID, { signal });
          if (!servers) continue; // the server list is not known yet: wait for it
          const cfg = await rt.getOrNull(MachineConfig, MACHINE_CONFIG_ID, { signal });
          const settings = timeSettingsOf(cfg?.spec);
          const disabled = opts.container === true || settings.disabled;

          if (disabled && running) {
            await stopSyncer();
          } else if (!disabled && !running) {
            const gen = ++generation;
            const stop = new AbortController();
            const syncer = (opts.newSyncer ?? ((o) => new Syncer(o)))({
              logger,
              ...opts.syncer,
              servers: servers.spec.ntpServers,
              adjustTime: opts.adjustTime,
              onSynced: () => {
                syncedBy = gen;
                rt.queueReconcile();
              },
              onEpochChange: () => {
                if (gen === generation) epoch++;
                rt.queueReconcile();
              },
            });
            running = { syncer, stop, done: syncer.run(AbortSignal.any([signal, stop.signal])) };
            timeSynced = false;
          }
          running?.syncer.setTimeServers(servers.spec.ntpServers);
          // after a syncer (re)start, which resets the flag: a boot timeout already past still counts
          if (!timeSynced) {
            const since = performance.now() - bootTimeMs;
            if (settings.bootTimeoutMs === 0) {
              clearTimeout(timer);
              timer = undefined;
            } else if (since >= settings.bootTimeoutMs) {
              timeSynced = true; // waited long enough: boot goes on with the clock as it is
            } else if (!timer || timerAt !== bootTimeMs + settings.bootTimeoutMs) {
              clearTimeout(timer);
              timerAt = bootTimeMs + settings.bootTimeoutMs;
              // a timer may fire a little before performance.now() says the wait is over (libuv
              // counts from its cached loop time); forgetting it lets the next pass arm another
              timer = setTimeout(() => {
                timer = undefined;
                rt.queueReconcile();
              }, settings.bootTimeoutMs - since);
            }
          }

          if (disabled) timeSynced = true;

          const status: TimeStatusSpec = { synced: timeSynced, epoch, syncDisabled: disabled };
          await rt.modify(TimeStatus, TIME_STATUS_ID, (spec) => Object.assign(spec, status), { signal });
          rt.resetBackoff();
        }
      } finally {
        clearTimeout(timer);
        await stopSyncer();
      }
    },
  });
}

/** timeSettingsOf reads sync's on/off switch and boot timeout; no config means on, without a timeout. */
export function timeSettingsOf(cfg?: MachineConfigSpec): TimeSettings {
  if (!cfg) return { disabled: false, bootTimeoutMs: 0 };
  const t = accessors(configOf(cfg)).timeSync();
  return {
    disabled: !t.enabled,
    bootTimeoutMs: t.bootTimeout === undefined ? 0 : (parseDuration(t.bootTimeout) ?? 0),
  };
}
