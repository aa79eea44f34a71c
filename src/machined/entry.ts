// The executable's entry: machined as PID 1 of a node (/sbin/init), or, in the single executable, the
// capability launcher. Only the kernel-log writer is imported up front, so the start record goes out
// before the rest of machined is loaded and evaluated.
import { openKmsgWriter } from '../sys/kmsg.js';

/** the argument that selects the launcher (CAP_LAUNCHER_ARG in services/cap-launcher.ts) */
const CAP_LAUNCHER_ARG = '--cap-launcher';
/** set by the build's code-cache training run (scripts/sea.ts), which must load machined but start nothing */
const TRAINING_ENV = 'KEEL_CODE_CACHE_TRAINING';
/** the global under which the training's promise is left for the build (scripts/sea/train.cjs) to await */
const TRAINING_DONE = Symbol.for('keel.codeCacheTraining');
/** an API address for tests that run the executable as PID 1 of a namespace; a node uses the default */
const API_ADDRESS_ENV = 'KEEL_API_ADDRESS';

const fail = (what: string, e: unknown) => {
  process.stderr.write(`[machined] ${what}: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
};

// never as PID 1: the kernel hands init the unknown words of its command line as arguments
if (process.argv[2] === CAP_LAUNCHER_ARG && process.pid !== 1) {
  import('./services/cap-launcher.js').then(
    (m) => m.launcherMain(process.argv.slice(3)),
    (e: unknown) => {
      fail('cap-launcher', e);
      process.exit(127);
    },
  );
} else if (process.env[TRAINING_ENV] === '1' && process.pid !== 1) {
  const g = globalThis as Record<symbol, unknown>;
  g[TRAINING_DONE] = import('./code-cache-training.js').then((m) => m.train());
} else if (process.pid !== 1) {
  process.stderr.write(
    `machined runs only as PID 1 (this is pid ${process.pid}); to run a node as an ordinary process use container mode (container-entry)\n`,
  );
  process.exit(2);
} else {
  try {
    const w = openKmsgWriter();
    // how long Node took to reach this script: process.uptime() counts from the process start, as
    // performance.now() does, but reading the `performance` global loads perf_hooks (~35 ms under TCG)
    w.write('info', `[keel] machined started (js at ${(process.uptime() * 1000).toFixed(0)} ms)`);
    w.close();
  } catch {
    // no kernel log: nothing else depends on it
  }
  const apiAddress = process.env[API_ADDRESS_ENV];
  import('./node/pid1.js')
    .then((m) => m.runPid1(apiAddress ? { apiAddress } : {}))
    .catch((e: unknown) => {
      // once startMachined ran, the emergency handlers turn this rejection into reboot(2)
      fail('start failed', e);
      throw e;
    });
}
