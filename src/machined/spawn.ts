// spawnProcess: start a program so that its exit status reaches the starter and never the orphan reaper.
import { type ChildProcess, type SpawnOptions, spawn } from 'node:child_process';
import { constants } from 'node:os';
import type { ExitStatus } from '../sys/wait.js';
import { installChildGuard } from './child-guard.js';

export type { ExitStatus };

export interface Spawned {
  readonly pid: number;
  readonly child: ChildProcess;
  /** resolves once with how the process ended; rejects only if it could not be started */
  readonly exited: Promise<ExitStatus>;
}

/** SpawnError: the program could not be started at all (e.g. ENOENT). */
export class SpawnError extends Error {
  override readonly name = 'SpawnError';
  constructor(
    readonly command: string,
    readonly code: string,
    options?: ErrorOptions,
  ) {
    super(`spawn ${JSON.stringify(command)}: ${code}`, options);
  }
}

/** toExitStatus converts Node's (code, signal) pair. */
export function toExitStatus(code: number | null, signal: NodeJS.Signals | null): ExitStatus {
  if (signal) return { kind: 'signaled', signal: constants.signals[signal], coreDumped: false };
  return { kind: 'exited', code: code ?? 0 };
}

/**
 * spawnProcess starts `command` with Node's child_process (libuv reaps it by pid) after making sure the
 * reaper knows such pids are not orphans. stdio defaults to ignore, since PID 1 has no terminal to share.
 */
export function spawnProcess(
  command: string,
  args: readonly string[] = [],
  opts: SpawnOptions = {},
): Promise<Spawned> {
  installChildGuard();
  const child = spawn(command, args, { stdio: 'ignore', ...opts });
  return new Promise((resolve, reject) => {
    const exited = new Promise<ExitStatus>((res, rej) => {
      child.once('exit', (code, signal) => res(toExitStatus(code, signal)));
      child.once('error', (err: NodeJS.ErrnoException) => {
        // 'error' also fires for a failed kill(); only a missing pid means the start failed
        if (child.pid === undefined) rej(new SpawnError(command, err.code ?? 'EUNKNOWN', { cause: err }));
      });
    });
    if (child.pid === undefined) {
      exited.then(
        () => reject(new SpawnError(command, 'EUNKNOWN')),
        (e: unknown) => reject(e),
      );
      return;
    }
    resolve({ pid: child.pid, child, exited });
  });
}
