// The orphan reaper of PID 1. Never waitpid(-1): that steals the statuses libuv waits for. Instead peek
// with waitid(P_ALL, WNOWAIT) and reap by pid only what Node did not start; when the peek shows a child
// Node owns, fall back to scanning /proc/self/task/*/children so that one zombie cannot hide the others.
// Children machined started without Node (posix_spawn) are reaped here too, their statuses routed to
// their starters (spawned-exits.ts) instead of the orphan listeners.
import { readdirSync, readFileSync } from 'node:fs';
import { type ExitStatus, exitStatusOf, P_ALL, P_PID, WEXITED, WNOWAIT, waitid } from '../sys/wait.js';
import { installChildGuard, isNodeOwned } from './child-guard.js';
import { attachReaper, routeExit } from './spawned-exits.js';

export interface Reaped {
  pid: number;
  status: ExitStatus;
}

export interface ReaperOptions {
  /**
   * backstop scan period (default 10 s). Each SIGCHLD scans every waitable child, so coalesced signals
   * lose none; the backstop only bounds a zombie's wait should a signal ever go missing, and an idle PID 1
   * wakes for it, so it is not every second
   */
  intervalMs?: number;
  /** where the thread list lives (tests point it at another process's view) */
  procSelf?: string;
  /** where a failing onReap listener is reported; it must not turn into an uncaught exception in PID 1 */
  log?: (line: string) => void;
}

export interface ReaperStats {
  scans: number;
  /** scans that had to list children because the peek showed a Node-owned zombie */
  fullScans: number;
  reaped: number;
}

export interface Reaper {
  /** scan reaps every waitable child Node does not own and returns the orphans among them */
  scan(): Reaped[];
  /** onReap registers a listener for each reaped orphan; returns the unsubscribe function */
  onReap(listener: (r: Reaped) => void): () => void;
  stats(): ReaperStats;
  /** stop removes the SIGCHLD listener and the timer */
  stop(): void;
}

/** childPids lists our direct children from every thread's children file (each thread keeps its own). */
export function childPids(procSelf = '/proc/self'): number[] {
  const out: number[] = [];
  for (const tid of readdirSync(`${procSelf}/task`)) {
    let text: string;
    try {
      text = readFileSync(`${procSelf}/task/${tid}/children`, 'utf8');
    } catch {
      continue; // the thread ended between readdir and read
    }
    for (const p of text.split(' ')) if (p.trim()) out.push(Number(p));
  }
  return out;
}

/** sweepChildren is the backstop: try to reap each child Node does not own, by pid (WNOHANG). */
export function sweepChildren(procSelf = '/proc/self'): Reaped[] {
  const out: Reaped[] = [];
  for (const pid of childPids(procSelf)) {
    if (isNodeOwned(pid)) continue;
    const w = waitid(P_PID, pid, WEXITED);
    if (w) out.push({ pid: w.pid, status: exitStatusOf(w) });
  }
  return out;
}

/** reapOnce is one scan without the event wiring; exported for measurement. */
export function reapOnce(
  stats: ReaperStats = { scans: 0, fullScans: 0, reaped: 0 },
  procSelf = '/proc/self',
): Reaped[] {
  stats.scans++;
  const out: Reaped[] = [];
  for (;;) {
    const peek = waitid(P_ALL, 0, WEXITED | WNOWAIT);
    if (!peek) break;
    if (isNodeOwned(peek.pid)) {
      // the first waitable child is libuv's: look past it, one pid at a time
      stats.fullScans++;
      out.push(...sweepChildren(procSelf));
      break;
    }
    const w = waitid(P_PID, peek.pid, WEXITED);
    if (w) out.push({ pid: w.pid, status: exitStatusOf(w) });
  }
  stats.reaped += out.length;
  return out;
}

/** startReaper listens for SIGCHLD (libuv delivers it to JS as to its own child watchers) and scans. */
export function startReaper(opts: ReaperOptions = {}): Reaper {
  installChildGuard();
  const stats: ReaperStats = { scans: 0, fullScans: 0, reaped: 0 };
  const listeners = new Set<(r: Reaped) => void>();
  const procSelf = opts.procSelf ?? '/proc/self';
  const log = opts.log ?? ((line: string) => process.stderr.write(`${line}\n`));

  const tell = (orphans: Reaped[]) => {
    for (const r of orphans)
      for (const l of listeners) {
        try {
          l(r);
        } catch (e) {
          log(`reaper: listener failed for pid ${r.pid}: ${e instanceof Error ? e.message : String(e)}`);
        }
      }
  };
  const scan = (): Reaped[] => {
    const out = reapOnce(stats, procSelf).filter((r) => !routeExit(r.pid, r.status));
    tell(out);
    return out;
  };
  // Scan inside the listener itself: the kernel already coalesces SIGCHLD, and a timer or immediate
  // scheduled from a signal listener was measured to run only seconds later under a burst of exits.
  const onChld = () => {
    scan();
  };
  process.on('SIGCHLD', onChld);
  const detach = attachReaper(tell);
  const timer = setInterval(scan, opts.intervalMs ?? 10_000);
  timer.unref();
  scan(); // zombies from before we started

  return {
    scan,
    onReap(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    stats: () => ({ ...stats }),
    stop() {
      process.off('SIGCHLD', onChld);
      detach();
      clearInterval(timer);
    },
  };
}
