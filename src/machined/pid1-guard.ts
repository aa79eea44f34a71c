// PID 1's guard, installed before anything of machined can fail: an uncaught exception, an unhandled
// rejection or a stray process.exit takes the emergency path, which ends in reboot(2) (if init exited,
// the kernel would panic). Until machined's start hands over its own path (emergency hooks, its mounts),
// the path powers down with nothing of machined's to clean up. Its modules (koffi and the system calls)
// load only when it runs: a maintenance API that listens before machined's start must not wait for them.
import { type Emergency, type FatalKind, installEmergencyHandlers } from './emergency.js';

export type FatalPath = (kind: FatalKind, error: unknown) => Promise<void>;

export interface Pid1Guard {
  readonly emergency: Emergency;
  /** takeOver makes `path` the emergency path from now on */
  takeOver(path: FatalPath): void;
}

/** guardPid1 installs the emergency handlers and the exit trap; call it first thing as PID 1. */
export function guardPid1(log: (line: string) => void): Pid1Guard {
  let path: FatalPath = async () => {
    const [{ powerDown }, { blockBacked }] = await Promise.all([
      import('./power-down.js'),
      import('./unmount-all.js'),
    ]);
    await powerDown('reboot', { log, unmount: { filter: blockBacked } });
    await hang(log);
  };
  const emergency = installEmergencyHandlers({ log, onFatal: (kind, error) => path(kind, error) });
  keepAlive(emergency);
  return {
    emergency,
    takeOver: (next) => {
      path = next;
    },
  };
}

/**
 * keepAlive holds PID 1's event loop open (signal listeners do not) and turns a stray process.exit from
 * any library into the emergency path: if init exits, the kernel panics.
 */
function keepAlive(emergency: Emergency): void {
  setInterval(() => {}, 1 << 30);
  process.exit = ((code?: number) => {
    emergency.fatal(new Error(`process.exit(${code ?? ''}) called in PID 1`));
    return undefined as never;
  }) as typeof process.exit;
}

/** hang is where PID 1 waits when reboot(2) itself failed: exiting would panic the kernel. */
export function hang(log: (l: string) => void): Promise<never> {
  log('reboot(2) returned: waiting for a signal');
  return new Promise<never>(() => {
    setInterval(() => {}, 1 << 30);
  });
}
