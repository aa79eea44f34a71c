// Ending every other process: SIGTERM to all, a bounded wait for them to go, then SIGKILL to the rest.
import { readdirSync, readFileSync } from 'node:fs';
import { setTimeout as delay } from 'node:timers/promises';

const PF_KTHREAD = 0x00200000;

export interface KillAllOptions {
  /** how long processes get to exit after SIGTERM */
  graceMs?: number;
  /** poll period while waiting (the kernel sends no event when a non-child exits) */
  pollMs?: number;
  /** reaps zombies between polls: as PID 1 they are ours, and a zombie still counts as a process here */
  reap?: () => void;
  signal?: AbortSignal;
}

/** livePids lists processes in our PID namespace other than ourselves, not counting zombies. */
export function livePids(proc = '/proc'): number[] {
  const out: number[] = [];
  for (const name of readdirSync(proc)) {
    const pid = Number(name);
    if (!Number.isInteger(pid) || pid === process.pid) continue;
    try {
      const stat = readFileSync(`${proc}/${pid}/stat`, 'utf8');
      // fields after the command: state ppid pgrp session tty_nr tpgid flags …
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      // kernel threads ignore signals and never exit: waiting for them would always cost the full grace
      if (f[0] !== 'Z' && (Number(f[6]) & PF_KTHREAD) === 0) out.push(pid);
    } catch {
      // gone between readdir and read
    }
  }
  return out;
}

/**
 * killAll is PID 1's kill(-1): in a PID namespace it reaches every process of that namespace but the
 * caller. It returns the pids that were still alive when SIGKILL was sent.
 */
export async function killAll(opts: KillAllOptions = {}): Promise<number[]> {
  const grace = opts.graceMs ?? 10_000;
  const poll = opts.pollMs ?? 50;
  trySignalAll('SIGTERM');
  const deadline = Date.now() + grace;
  while (Date.now() < deadline) {
    opts.reap?.();
    if (livePids().length === 0) return [];
    await delay(poll, undefined, opts.signal ? { signal: opts.signal } : {});
  }
  const left = livePids();
  trySignalAll('SIGKILL');
  opts.reap?.();
  return left;
}

function trySignalAll(sig: NodeJS.Signals): void {
  try {
    process.kill(-1, sig);
  } catch {
    // ESRCH: nobody else is left
  }
}
