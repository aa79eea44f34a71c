// The last steps of every path out of PID 1, orderly or not: kill all → unmount all → sync → reboot(2).

import { reboot as rebootSyscall } from '../sys/reboot.js';
import { syncBounded } from '../sys/sync.js';
import { type KillAllOptions, killAll } from './kill-all.js';
import { type PowerAction, REBOOT_CMD_OF } from './power-action.js';
import { type UnmountAllOptions, unmountAll } from './unmount-all.js';

export interface PowerDownOptions {
  log: (line: string) => void;
  kill?: Omit<KillAllOptions, 'signal'>;
  unmount?: Omit<UnmountAllOptions, 'log' | 'signal'>;
  /** sync may hang on a dead device; reboot anyway after this long */
  syncTimeoutMs?: number;
  /** the final call; default reboot(2) with the action's command */
  reboot?: (action: PowerAction) => void;
}

/**
 * powerDown ends the machine. Only PID 1 may call it: kill(-1) anywhere else would reach every process
 * of the PID namespace. reboot(2) does not return on success; if it fails, the error is thrown.
 */
export async function powerDown(action: PowerAction, opts: PowerDownOptions): Promise<void> {
  if (process.pid !== 1)
    throw new Error(`power-down (${action}): refusing to run outside PID 1 (pid ${process.pid})`);
  const { log } = opts;
  log('power-down: killing all processes');
  const stubborn = await safely(log, 'kill all', () => killAll(opts.kill ?? {}));
  if (stubborn?.length) log(`power-down: sent SIGKILL to ${stubborn.length} process(es)`);
  log('power-down: unmounting filesystems');
  const busy = await safely(log, 'unmount all', () => unmountAll({ ...opts.unmount, log }));
  if (busy?.length) log(`power-down: still mounted: ${busy.join(' ')}`);
  log('power-down: syncing');
  if (!(await syncBounded(opts.syncTimeoutMs ?? 30_000))) log('power-down: sync timed out');
  log(`power-down: reboot(${REBOOT_CMD_OF[action]})`);
  (opts.reboot ?? ((a) => rebootSyscall(REBOOT_CMD_OF[a])))(action);
}

/** safely runs one step; a failed step is logged and the power-down goes on, since it is the last resort. */
async function safely<T>(
  log: (l: string) => void,
  step: string,
  fn: () => Promise<T>,
): Promise<T | undefined> {
  try {
    return await fn();
  } catch (e) {
    log(`power-down: ${step} failed: ${e instanceof Error ? e.message : String(e)}`);
    return undefined;
  }
}
