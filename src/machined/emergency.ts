// The last-resort path: any uncaught exception or unhandled rejection ends in cleanup and reboot(2).
// If PID 1 exited the kernel would panic, so nothing here ever calls process.exit.

export type FatalKind = 'uncaughtException' | 'unhandledRejection' | 'fatal';

export interface EmergencyOptions {
  log: (line: string) => void;
  /** the emergency sequence: cleanup, then power-down; called once */
  onFatal: (kind: FatalKind, error: unknown) => Promise<void>;
}

export interface Emergency {
  /** fatal takes the emergency path on purpose (e.g. a failed sequence) */
  fatal(error: unknown): void;
  uninstall(): void;
}

/** installEmergencyHandlers catches every fatal error; a second one during the emergency is only logged. */
export function installEmergencyHandlers(opts: EmergencyOptions): Emergency {
  let running = false;
  const take = (kind: FatalKind, error: unknown) => {
    opts.log(
      `emergency: ${kind}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
    );
    if (running) return;
    running = true;
    opts.onFatal(kind, error).catch((e: unknown) => {
      opts.log(`emergency: power-down failed: ${e instanceof Error ? e.message : String(e)}`);
    });
  };
  const onException = (e: unknown) => take('uncaughtException', e);
  const onRejection = (e: unknown) => take('unhandledRejection', e);
  process.on('uncaughtException', onException);
  process.on('unhandledRejection', onRejection);
  return {
    fatal: (e) => take('fatal', e),
    uninstall() {
      process.off('uncaughtException', onException);
      process.off('unhandledRejection', onRejection);
    },
  };
}
