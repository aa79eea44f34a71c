// machined: PID 1 duties wired together — signals, reaper, emergency path, early mounts, COSI state and
// runtime, and the boot id. startMachined is the testable core; entry.ts only calls it. The machine's stage
// is not set here: runtime.MachineStatusController reads it from the events of the sequences.
import { readFileSync } from 'node:fs';
import { BOOT_ID_ID, BootID } from '../../resources/runtime/boot-id.js';
import { registerRuntimeResources } from '../../resources/runtime/index.js';
import { RUNTIME_NAMESPACE } from '../../resources/runtime/machine-status.js';
import { lineLogger } from '../cosi/controller/logger.js';
import { Runtime } from '../cosi/controller/runtime.js';
import { registerDefault, registerNamespace } from '../cosi/resource/meta/index.js';
import type { State } from '../cosi/state/state.js';
import { setName } from '../sys/prctl.js';
import { reboot } from '../sys/reboot.js';
import { readBootId } from './boot-id.js';
import { applyEnvironment } from './env.js';
import { mountEarly } from './mounts.js';
import { newNodeState } from './node-state.js';
import { guardPid1, hang, type Pid1Guard } from './pid1-guard.js';
import type { PowerAction } from './power-action.js';
import { powerDown } from './power-down.js';
import { type Reaper, startReaper } from './reaper.js';
import { applyRlimits } from './rlimits.js';
import { runShutdownHooks, type ShutdownHook } from './shutdown.js';
import { installSignalHandlers } from './signals.js';
import { blockBacked } from './unmount-all.js';

export const MACHINED_OWNER = 'machined';

export interface MachinedOptions {
  /** perform PID 1 duties: early mounts, rlimits, environment, emergency handlers and the final reboot(2) */
  pid1: boolean;
  /** prefix of the early mounts; '/' on a node */
  root?: string;
  log?: (line: string) => void;
  /** PID 1's guard when it was installed before machined's start (guardPid1); else startMachined installs it */
  guard?: Pid1Guard;
  /** the state a maintenance API already serves, listening since before machined's start; else a new one */
  state?: State;
  /** SIGTERM → SIGKILL grace of the power-down */
  killGraceMs?: number;
  unmountAttempts?: number;
  unmountRetryDelayMs?: number;
  syncTimeoutMs?: number;
  hookTimeoutMs?: number;
  /** bound of the emergency cleanup hooks, all together */
  emergencyTimeoutMs?: number;
  /** this run's boot id, when it is not the kernel's (a container node shares its host's kernel) */
  bootId?: string;
  /** where the controllers' log lines go (upstream's controller-runtime log); default stderr, warnings up */
  controllerLog?: (line: string) => void;
}

export interface Machined {
  readonly state: State;
  readonly runtime: Runtime;
  readonly reaper: Reaper;
  readonly bootId: string;
  /** mount points machined made itself, taken down again at power-down */
  readonly mounted: readonly string[];
  /** hooks of the orderly shutdown, run in the order added */
  addShutdownHook(hook: ShutdownHook): void;
  /** hooks of the emergency path (e.g. unmount volumes), run before the power-down */
  addEmergencyHook(hook: ShutdownHook): void;
  /** shutdown runs the orderly path once; as PID 1 it ends in reboot(2) and does not resolve */
  shutdown(action: PowerAction): Promise<void>;
  /** fatal takes the emergency path (as PID 1) */
  fatal(error: unknown): void;
  /** resolves with the action once a shutdown finished without PID 1 duties */
  readonly done: Promise<PowerAction>;
}

const consoleLog = (line: string) => {
  process.stdout.write(`[machined] ${line}\n`);
};

/** startMachined brings PID 1 up to a running COSI runtime; the sequencer takes over from there. */
export async function startMachined(opts: MachinedOptions): Promise<Machined> {
  const log = opts.log ?? consoleLog;
  const root = opts.root ?? '/';
  const shutdownHooks: ShutdownHook[] = [];
  const emergencyHooks: ShutdownHook[] = [];
  let mounted: string[] = [];
  // the emergency path may run before the reaper exists
  let reaper: Reaper | undefined;
  let resolveDone: (a: PowerAction) => void = () => {};
  const done = new Promise<PowerAction>((r) => {
    resolveDone = r;
  });

  const finalSteps = (action: PowerAction) =>
    powerDown(action, {
      log,
      kill: { graceMs: opts.killGraceMs ?? 10_000, reap: () => void reaper?.scan() },
      unmount: {
        filter: (m) => blockBacked(m) || mounted.includes(m.mountPoint),
        attempts: opts.unmountAttempts ?? 10,
        retryDelayMs: opts.unmountRetryDelayMs ?? 1_000,
      },
      syncTimeoutMs: opts.syncTimeoutMs ?? 30_000,
    });

  // whatever happens from here on ends in reboot(2) when we are PID 1, never in an exit
  const guard = opts.pid1 ? (opts.guard ?? guardPid1(log)) : undefined;
  guard?.takeOver(async () => {
    await withTimeout(
      runShutdownHooks('reboot', emergencyHooks, { log, hookTimeoutMs: opts.hookTimeoutMs ?? 30_000 }),
      opts.emergencyTimeoutMs ?? 30_000,
    );
    await finalSteps('reboot');
    await hang(log);
  });
  const emergency = guard?.emergency;

  const state = opts.state ?? newNodeState();
  if (opts.pid1) {
    setName('machined');
    try {
      // ctrl-alt-del then reaches us as SIGINT instead of rebooting at once
      reboot('CAD_OFF');
    } catch (e) {
      log(`ctrl-alt-del stays with the kernel: ${(e as Error).message}`); // EINVAL in a PID namespace
    }
  }
  const started = startReaper({ log });
  reaper = started;
  if (opts.pid1) {
    mounted = mountEarly(root);
    for (const r of applyRlimits())
      if (r.set.hard !== r.wanted.hard)
        log(`rlimit ${r.resource}: hard limit stays ${r.set.hard} (no CAP_SYS_RESOURCE)`);
    applyEnvironment(readFileSync('/proc/cmdline', 'utf8'));
  }

  await registerDefault(state);
  await registerNamespace(state, RUNTIME_NAMESPACE, 'Talos runtime resources.');
  await registerRuntimeResources(state);
  const bootId = opts.bootId ?? readBootId();
  await state.modify(
    BootID.new(RUNTIME_NAMESPACE, BOOT_ID_ID),
    (r) => {
      (r as BootID).spec.bootID = bootId;
    },
    { owner: MACHINED_OWNER },
  );

  const runtime = new Runtime(
    state,
    opts.controllerLog ? { logger: lineLogger(opts.controllerLog, 'info') } : {},
  );
  const stopRuntime = new AbortController();
  const running = runtime.run({ signal: stopRuntime.signal }).catch((e: unknown) => {
    if (emergency) emergency.fatal(e);
    else log(`controller runtime failed: ${(e as Error).message}`);
  });

  let shuttingDown: Promise<void> | undefined;
  const shutdown = (action: PowerAction) =>
    (shuttingDown ??= (async () => {
      const hooks = [
        ...shutdownHooks,
        {
          name: 'stopControllerRuntime',
          run: async () => {
            stopRuntime.abort(new Error('shutdown'));
            await running;
          },
        },
      ];
      await runShutdownHooks(action, hooks, { log, hookTimeoutMs: opts.hookTimeoutMs ?? 30_000 });
      if (!opts.pid1) {
        started.stop();
        uninstallSignals();
        resolveDone(action);
        return;
      }
      try {
        await finalSteps(action);
      } catch (e) {
        emergency?.fatal(e);
      }
      await hang(log);
    })());
  const uninstallSignals = installSignalHandlers((action, sig) => {
    log(`${sig}: ${action}`);
    void shutdown(action);
  });

  log(`machined up: boot id ${bootId}${opts.pid1 ? ', PID 1' : ''}`);
  return {
    state,
    runtime,
    reaper: started,
    bootId,
    mounted,
    addShutdownHook: (h) => {
      shutdownHooks.push(h);
    },
    addEmergencyHook: (h) => {
      emergencyHooks.push(h);
    },
    shutdown,
    fatal: (e) => {
      if (emergency) emergency.fatal(e);
      else throw e;
    },
    done,
  };
}

/** withTimeout bounds a cleanup step; a step that hangs must not keep the machine from rebooting. */
async function withTimeout(p: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([p, new Promise((r) => (timer = setTimeout(r, ms)))]).finally(() => clearTimeout(timer));
}
