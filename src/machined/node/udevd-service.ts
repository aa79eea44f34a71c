// udevd as a supervised process, as upstream runs it: device nodes and /dev/disk/by-* links for whatever
// the kernel finds. It is started by the Initialize sequence, before any config exists, and counts as up
// only once the coldplug events it triggered have been processed.
import { spawn as nodeSpawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import {
  type CgroupPlacer,
  processRunner,
  runProgram,
  type ServiceDefinition,
  type SpawnFn,
} from '../services/index.js';

export const UDEVD_SERVICE = 'udevd';

/** Where Debian's udev puts its two programs (merged-/usr or not). */
const UDEVD_PATHS = ['/usr/lib/systemd/systemd-udevd', '/lib/systemd/systemd-udevd'];
const UDEVADM_PATHS = ['/usr/bin/udevadm', '/bin/udevadm'];
/** the whole environment of udevd and udevadm */
const UDEV_ENV = { PATH: '/usr/bin:/usr/sbin' };

export interface UdevdServiceOptions {
  /** moves the daemon into system/udevd; absent outside PID 1 */
  readonly cgroups?: CgroupPlacer;
  /** default: the first of the Debian paths that exists */
  readonly udevd?: string;
  readonly udevadm?: string;
  readonly exists?: (path: string) => boolean;
  /** starts udevd and udevadm; default Node's spawn (PID 1 passes spawnWithoutFork) */
  readonly spawn?: SpawnFn;
}

/** udevdService is undefined on a root without udev: such a node (or a test namespace) has no udevd at all. */
export function udevdService(opts: UdevdServiceOptions = {}): ServiceDefinition | undefined {
  const exists = opts.exists ?? existsSync;
  const udevd = opts.udevd ?? UDEVD_PATHS.find(exists);
  const udevadm = opts.udevadm ?? UDEVADM_PATHS.find(exists);
  if (!udevd || !udevadm) return undefined;
  const spawn = opts.spawn ?? nodeSpawn;
  const udevadmRun = (args: string[], signal: AbortSignal) =>
    runProgram(spawn, udevadm, args, { signal, env: UDEV_ENV });
  // coldplug runs once per start: later health checks only wait for the queue to drain
  let triggered = false;
  return {
    id: UDEVD_SERVICE,
    runner: () => {
      triggered = false;
      return processRunner({
        // names stay numeric: there is no user database on the node
        args: [udevd, '--resolve-names=never'],
        env: UDEV_ENV,
        spawn,
        ...(opts.cgroups ? { cgroup: { path: 'system/udevd', placer: opts.cgroups } } : {}),
      });
    },
    health: {
      check: async (signal) => {
        if (!triggered) {
          await udevadmRun(['trigger', '--type=devices', '--action=add'], signal);
          await udevadmRun(['trigger', '--type=subsystems', '--action=add'], signal);
          triggered = true;
        }
        // disks named by /dev/disk/by-* must exist before anything looks for them
        await udevadmRun(['settle', '--timeout=50'], signal);
      },
      // upstream's: a settle spawns a process, which an idle node must not do every few seconds
      settings: { initialDelayMs: 100, periodMs: 60_000, timeoutMs: 55_000 },
    },
  };
}
