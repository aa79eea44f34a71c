// Exits of the children machined starts with posix_spawn (services/spawn-without-fork.ts). libuv does
// not know them, so the reaper reaps them like orphans and routes their statuses here. A child can end
// before its starter learns its pid (posix_spawn returns on a worker thread): while any start is in
// flight, a status nobody has claimed is kept, and handed back to the reaper as an orphan's only once
// every start in flight has registered its pid.
import type { ExitStatus } from '../sys/wait.js';

type Waiter = (status: ExitStatus) => void;

export interface RoutedExit {
  readonly pid: number;
  readonly status: ExitStatus;
}

const waiters = new Map<number, Waiter>();
/** statuses reaped while a start was in flight, not claimed yet */
const early = new Map<number, ExitStatus>();
let inFlight = 0;
let orphansSink: ((orphans: RoutedExit[]) => void) | undefined;

/** attachReaper is the reaper's side: statuses kept back that were orphans' after all go to `orphans`. */
export function attachReaper(orphans: (orphans: RoutedExit[]) => void): () => void {
  orphansSink = orphans;
  return () => {
    if (orphansSink === orphans) orphansSink = undefined;
  };
}

/** reaperAttached tells whether anything would deliver the exits: without a reaper they never arrive. */
export const reaperAttached = (): boolean => orphansSink !== undefined;

/**
 * beginStart marks a start in flight; the function it returns takes the new pid and the waiter for its
 * exit (or nothing, when the start failed). A status reaped before that is delivered at once.
 */
export function beginStart(): (started?: { pid: number; onExit: Waiter }) => void {
  inFlight++;
  let ended = false;
  return (started) => {
    if (ended) return;
    ended = true;
    inFlight--;
    if (started) {
      const status = early.get(started.pid);
      if (status) {
        early.delete(started.pid);
        started.onExit(status);
      } else waiters.set(started.pid, started.onExit);
    }
    if (inFlight === 0 && early.size > 0) {
      const orphans = [...early].map(([pid, status]) => ({ pid, status }));
      early.clear();
      orphansSink?.(orphans);
    }
  };
}

/** routeExit takes a reaped child's status for its starter; false when it is an orphan's. */
export function routeExit(pid: number, status: ExitStatus): boolean {
  const waiter = waiters.get(pid);
  if (waiter) {
    waiters.delete(pid);
    waiter(status);
    return true;
  }
  if (inFlight === 0) return false;
  early.set(pid, status);
  return true;
}

/** awaitedCount is how many started children have not been reaped yet. */
export const awaitedCount = (): number => waiters.size;
