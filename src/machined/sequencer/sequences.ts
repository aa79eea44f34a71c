// The sequences machined runs today, built from the subsystems that exist. Each grows as later issues
// add its tasks (install, upgrade); until then those sequences are absent and unsupported.
import { type Phase, phase, type SequenceTable, task } from './phase.js';

/** ServiceControl is the part of the services supervisor the sequences drive. */
export interface ServiceControl {
  start(...ids: string[]): void;
  startAll(): void;
  list(): readonly { readonly id: string }[];
  waitFor(ids: readonly string[], opts: { signal: AbortSignal }): Promise<void>;
  denyNewServices(): void;
  stopAll(opts: { signal?: AbortSignal }): Promise<void>;
}

/** Power is the end of a sequence: PID 1's orderly sync → unmount → reboot(2) path. */
export interface Power {
  reboot(signal: AbortSignal): Promise<void>;
  powerOff(signal: AbortSignal): Promise<void>;
}

/** Volumes is what the Boot sequence asks of the block subsystem (absent in container mode). */
export interface Volumes {
  /** mountEphemeral resolves once EPHEMERAL is mounted at /var (or the node has no system disk for it) */
  mountEphemeral(opts: { signal: AbortSignal; log: (line: string) => void }): Promise<void>;
  /** teardownLifecycle resolves once no disk work is under way and none will start (upstream's task) */
  teardownLifecycle(opts: { signal: AbortSignal; log: (line: string) => void }): Promise<void>;
}

/** Wiper carries out a Reset's wipe; the sequence's data is the plan the node made of the request. */
export interface Wiper {
  wipe(plan: unknown, opts: { signal: AbortSignal; log: (line: string) => void }): Promise<void>;
}

/** Installer carries out the Install sequence; its data is the plan the node made of its config. */
export interface Installer {
  install(plan: unknown, opts: { signal: AbortSignal; log: (line: string) => void }): Promise<void>;
  /** resolves once the volume controllers have made STATE on the new disk and the config is kept there */
  waitForStateConfig(opts: { signal: AbortSignal; log: (line: string) => void }): Promise<void>;
}

export interface SequenceDeps {
  readonly services: ServiceControl;
  readonly volumes?: Volumes;
  /** the Reset sequence exists only where something can be wiped (not in container mode) */
  readonly reset?: Wiper;
  /** the Install sequence exists only where a node can install itself (not in container mode) */
  readonly install?: Installer;
  /** services the Initialize sequence starts (upstream: machined, apid, …), in its earlyServices phase */
  readonly earlyServices?: readonly string[];
  /** without it, shutdown and reboot stop everything and return; the caller then powers off */
  readonly power?: Power;
}

/** startTaskName follows upstream's task names: machined → startMachined. */
const startTaskName = (id: string): string => `start${id.charAt(0).toUpperCase()}${id.slice(1)}`;

/** defaultSequences builds the table the Sequencer runs. */
export function defaultSequences(deps: SequenceDeps): SequenceTable {
  const { services, power } = deps;
  const early = deps.earlyServices ?? [];

  const stopAll: Phase[] = [
    phase(
      'denyNewServices',
      task('denyNewServices', () => services.denyNewServices()),
    ),
    phase(
      'stopEverything',
      task('stopAllServices', ({ signal }) => services.stopAll({ signal })),
    ),
  ];

  // once everything is stopped: no partition or filesystem is left half-made by what comes next (a wipe,
  // a reboot, a power-off)
  const teardownVolumes: Phase[] = deps.volumes
    ? [
        phase(
          'volumeLifecycle',
          task('teardownVolumeLifecycle', ({ signal, log }) =>
            deps.volumes!.teardownLifecycle({ signal, log }),
          ),
        ),
      ]
    : [];

  const initialize = (): Phase[] =>
    early.length === 0
      ? []
      : [
          phase(
            'earlyServices',
            ...early.map((id) =>
              task(startTaskName(id), async ({ signal }) => {
                services.start(id);
                await services.waitFor([id], { signal });
              }),
            ),
          ),
        ];

  const boot = (): Phase[] => [
    // as upstream's MountEphemeralPartition: /var is on disk before any service that keeps data there starts
    ...(deps.volumes
      ? [
          phase(
            'ephemeral',
            task('mountEphemeralPartition', ({ signal, log }) =>
              deps.volumes!.mountEphemeral({ signal, log }),
            ),
          ),
        ]
      : []),
    phase(
      'startEverything',
      task('startAllServices', async ({ signal, log }) => {
        services.startAll();
        const ids = services.list().map((s) => s.id);
        log(`waiting for ${ids.length} service(s)`);
        await services.waitFor(ids, { signal });
      }),
    ),
  ];

  const end = (name: 'reboot' | 'shutdown', act: keyof Power): Phase[] =>
    power
      ? [
          phase(
            name,
            task(act, ({ signal }) => power[act](signal)),
          ),
        ]
      : [];

  return {
    initialize,
    boot,
    shutdown: () => [...stopAll, ...teardownVolumes, ...end('shutdown', 'powerOff')],
    reboot: () => [...stopAll, ...teardownVolumes, ...end('reboot', 'reboot')],
    // upstream's Install: the install, then everything stopped; the caller reboots into the disk. Upstream's
    // installer writes the config itself; here the volume controllers make STATE on the new disk and machined
    // keeps the active config there, which the sequence waits for
    ...(deps.install
      ? {
          install: () => [
            phase(
              'install',
              task('install', ({ signal, log, data }) => deps.install!.install(data, { signal, log })),
            ),
            phase(
              'saveConfig',
              task('waitForStateConfig', ({ signal, log }) =>
                deps.install!.waitForStateConfig({ signal, log }),
              ),
            ),
            ...stopAll,
            ...teardownVolumes,
          ],
        }
      : {}),
    // upstream's Reset: stop everything, then wipe what the request named (resetSystemDiskSpec); the
    // caller powers off or reboots once it is done
    ...(deps.reset
      ? {
          reset: () => [
            ...stopAll,
            ...teardownVolumes,
            phase(
              'resetSpec',
              task('resetSystemDiskSpec', ({ signal, log, data }) => deps.reset!.wipe(data, { signal, log })),
            ),
          ],
        }
      : {}),
  };
}
