// The stock talosctl as the tests' client: built from its Go module by scripts/talosctl.sh (cached outside
// the work tree; `make test` links it at _out/talosctl), run with a deadline so that a hang fails the test
// with what it printed rather than stalling the suite.
import assert from 'node:assert/strict';
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/** talosctlPath finds the binary: the link `make test` made, else the cache (building it once if cold). */
export function talosctlPath(): string {
  const linked = join(ROOT, '_out', 'talosctl');
  if (existsSync(linked)) return linked;
  return execFileSync(join(ROOT, 'scripts', 'talosctl.sh'), {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
    timeout: 30 * 60_000,
  }).trim();
}

export interface Run {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
  /** stdout and stderr as printed, for failure messages */
  readonly output: string;
  /** true when the deadline ended it */
  readonly timedOut: boolean;
}

export interface TalosctlOptions {
  /** TALOSCONFIG; absent for --insecure calls and `gen config` */
  readonly talosconfig?: string;
  readonly cwd?: string;
  /** default 30 s: every call the suite makes answers or fails well within it */
  readonly timeoutMs?: number;
  /** extra environment (TALOS_EDITOR for `edit`) */
  readonly env?: Readonly<Record<string, string>>;
}

/** environment is the caller's, minus its own TALOSCONFIG, with HOME in the test's directory. */
function environment(opts: TalosctlOptions): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, HOME: opts.cwd ?? process.env.HOME, ...opts.env };
  delete env.TALOSCONFIG;
  if (opts.talosconfig) env.TALOSCONFIG = opts.talosconfig;
  return env;
}

const children = new Set<ChildProcess>();

/**
 * run starts talosctl and collects what it prints until it exits. At the deadline, or once `until` matches
 * its stdout, it is ended with `stop`: SIGKILL for a hang, SIGINT (a user's Ctrl-C) for a follower.
 */
function run(
  bin: string,
  args: readonly string[],
  opts: TalosctlOptions,
  end: { readonly until?: RegExp; readonly stop: NodeJS.Signals; readonly deadlineMs: number },
): Promise<Run & { matched: boolean }> {
  return new Promise((resolve) => {
    const child = spawn(bin, args, {
      cwd: opts.cwd,
      env: environment(opts),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.add(child);
    let stdout = '';
    let stderr = '';
    let output = '';
    let matched = false;
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill(end.stop);
    }, opts.timeoutMs ?? end.deadlineMs);
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      stdout += d;
      output += d;
      if (end.until && !matched && end.until.test(stdout)) {
        matched = true;
        child.kill(end.stop);
      }
    });
    child.stderr.setEncoding('utf8').on('data', (d: string) => {
      stderr += d;
      output += d;
    });
    child.once('close', (code) => {
      clearTimeout(timer);
      children.delete(child);
      resolve({ code, stdout, stderr, output: `$ talosctl ${args.join(' ')}\n${output}`, timedOut, matched });
    });
  });
}

/**
 * works checks a run ended by itself with exit code 0, and returns its stdout. node:assert, not vitest's
 * expect: the benches boot nodes with these helpers outside vitest's runner.
 */
export function works(r: Run): string {
  assert.equal(r.timedOut, false, r.output);
  assert.equal(r.code, 0, r.output);
  return r.stdout;
}

/** talosctl runs one command to its end (or its deadline, default 30 s) and returns what it printed. */
export const talosctl = (bin: string, args: readonly string[], opts: TalosctlOptions = {}): Promise<Run> =>
  run(bin, args, opts, { stop: 'SIGKILL', deadlineMs: 30_000 });

/**
 * talosctlFollow streams a command that follows (get --watch, events, logs -f) until `until` matches its
 * stdout or the deadline (default 15 s) passes, then interrupts it as a user's Ctrl-C would.
 */
export const talosctlFollow = (
  bin: string,
  args: readonly string[],
  until: RegExp,
  opts: TalosctlOptions = {},
): Promise<Run & { matched: boolean }> => run(bin, args, opts, { until, stop: 'SIGINT', deadlineMs: 15_000 });

/** killTalosctls ends every talosctl still running (a test that failed midway). */
export function killTalosctls(): void {
  for (const c of children) c.kill('SIGKILL');
  children.clear();
}
