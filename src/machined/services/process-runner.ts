// processRunner: a service as a child process with its own cgroup, environment, uid/gid and captured output.
import { spawn as nodeSpawn, type SpawnOptions } from 'node:child_process';
import type { EventEmitter } from 'node:events';
import type { Readable } from 'node:stream';
import { defaultCapabilityLauncher } from './cap-launcher.js';
import type { CgroupPlacer } from './cgroup.js';
import { ServiceError } from './errors.js';
import { failure, type Runner, type RunnerContext, type RunOutcome } from './runner.js';

/**
 * ServiceChild is what a runner needs of a started program, as child_process shows one: 'spawn' or
 * 'error' first, then 'exit' (code, signal name); a ChildProcess is one.
 */
export interface ServiceChild extends EventEmitter {
  readonly pid?: number | undefined;
  readonly stdout: Readable | null;
  readonly stderr: Readable | null;
  kill(signal?: NodeJS.Signals | number): boolean;
}

/** SpawnFn is child_process.spawn's shape, so PID 1's own spawn (spawnWithoutFork) can be plugged in. */
export type SpawnFn = (file: string, args: readonly string[], opts: SpawnOptions) => ServiceChild;

/**
 * CapabilityLauncher rewrites argv so the program starts with the named capabilities dropped (e.g.
 * by prefixing a small launcher). Node cannot drop capabilities of a child by itself, so by default
 * the program is started through the capability launcher (cap-launcher.ts), which drops them and execs it.
 */
/** CapabilityLauncher rewrites argv so the child drops `drop`, then (if given) switches to the ids, then execs. */
export type CapabilityLauncher = (
  argv: readonly string[],
  drop: readonly string[],
  ids?: { readonly uid?: number; readonly gid?: number },
) => readonly string[];

export interface ProcessRunnerOptions {
  /** argv[0] is the program */
  readonly args: readonly string[];
  /** the complete environment of the child; default: machined's */
  readonly env?: Readonly<Record<string, string>>;
  readonly cwd?: string;
  readonly uid?: number;
  readonly gid?: number;
  /** the cgroup (relative to the hierarchy root) and the placer that moves the child into it */
  readonly cgroup?: { readonly path: string; readonly placer: CgroupPlacer };
  /** capability names (CAP_SYS_ADMIN …) to drop, through `capabilityLauncher` */
  readonly dropCapabilities?: readonly string[];
  /** default: defaultCapabilityLauncher */
  readonly capabilityLauncher?: CapabilityLauncher;
  /** SIGTERM, then SIGKILL after this long; default 10 s, as upstream */
  readonly gracefulShutdownTimeoutMs?: number;
  readonly spawn?: SpawnFn;
}

const DEFAULT_GRACE_MS = 10_000;
/** how long to wait for the pipes to drain after exit, when a grandchild still holds them */
const DRAIN_MS = 1000;

export function processRunner(opts: ProcessRunnerOptions): Runner {
  const name = `Process(${JSON.stringify(opts.args)})`;
  return {
    kind: 'process',
    toString: () => name,
    run: (ctx) => runProcess(name, opts, ctx),
  };
}

const ids = (o: ProcessRunnerOptions): { uid?: number; gid?: number } => ({
  ...(o.uid !== undefined ? { uid: o.uid } : {}),
  ...(o.gid !== undefined ? { gid: o.gid } : {}),
});

async function runProcess(name: string, opts: ProcessRunnerOptions, ctx: RunnerContext): Promise<RunOutcome> {
  let argv = opts.args;
  if (argv.length === 0) return failure(new ServiceError('spawn-failed', `${name}: no program given`));
  const drop = opts.dropCapabilities ?? [];
  if (drop.length > 0) {
    try {
      // the launcher switches uid/gid itself: dropping needs CAP_SETPCAP, which the switch would take away
      argv = (opts.capabilityLauncher ?? defaultCapabilityLauncher)(argv, drop, ids(opts));
    } catch (cause) {
      const why = cause instanceof Error ? cause.message : String(cause);
      return failure(new ServiceError('spawn-failed', `${name}: ${why}`, { cause }));
    }
  }
  if (ctx.signal.aborted) return { type: 'stopped' };
  const spawn = opts.spawn ?? nodeSpawn;
  let child: ServiceChild;
  try {
    child = spawn(argv[0]!, argv.slice(1), {
      stdio: ['ignore', 'pipe', 'pipe'],
      ...(opts.env ? { env: { ...opts.env } } : {}),
      ...(opts.cwd ? { cwd: opts.cwd } : {}),
      ...(drop.length === 0 ? ids(opts) : {}),
    });
  } catch (cause) {
    return failure(new ServiceError('spawn-failed', `${name}: spawn failed`, { cause }));
  }
  // after start, 'error' only reports a failed kill(); unheard, it would throw inside PID 1
  child.on('error', () => {});
  child.stdout?.on('data', (b: Buffer) => ctx.log.write(b));
  child.stderr?.on('data', (b: Buffer) => ctx.log.write(b));
  const exited = exitOf(child);
  const spawned = await new Promise<Error | undefined>((resolve) => {
    child.once('spawn', () => resolve(undefined));
    child.once('error', (e) => resolve(e));
  });
  if (spawned)
    return failure(new ServiceError('spawn-failed', `${name}: ${spawned.message}`, { cause: spawned }));
  const pid = child.pid!;
  const cg = opts.cgroup;

  let stopping = false;
  let killTimer: NodeJS.Timeout | undefined;
  const forceKill = (): void => {
    child.kill('SIGKILL');
    if (cg) void cg.placer.kill(cg.path).catch(() => {});
  };
  const stop = (): void => {
    stopping = true;
    child.kill('SIGTERM');
    killTimer = setTimeout(forceKill, opts.gracefulShutdownTimeoutMs ?? DEFAULT_GRACE_MS);
  };
  try {
    if (cg) {
      try {
        await cg.placer.place(pid, cg.path);
      } catch (error) {
        forceKill();
        await exited;
        return failure(error);
      }
    }
    ctx.sink('Running', `Process ${name} started with PID ${pid}`);
    if (ctx.signal.aborted) stop();
    else ctx.signal.addEventListener('abort', stop, { once: true });
    const { code, signal } = await exited;
    // what the service left behind in its cgroup dies with it, and stops holding the pipes open
    if (cg) await cg.placer.kill(cg.path).catch(() => {});
    await drained(child);
    if (stopping) return { type: 'stopped' };
    if (code === 0) return { type: 'success' };
    return failure(
      new ServiceError(
        'exited',
        code !== null ? `${name}: exited with code ${code}` : `${name}: killed by signal ${signal}`,
      ),
    );
  } finally {
    clearTimeout(killTimer);
    ctx.signal.removeEventListener('abort', stop);
    if (cg) await cg.placer.remove(cg.path).catch(() => {});
  }
}

const exitOf = (child: ServiceChild): Promise<{ code: number | null; signal: NodeJS.Signals | null }> =>
  new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));

/** drained waits for the output pipes to close, but not for a grandchild that keeps them open. */
export async function drained(child: ServiceChild): Promise<void> {
  const open = [child.stdout, child.stderr].filter((s) => s && !s.closed);
  if (open.length === 0) return;
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    Promise.all(open.map((s) => new Promise((resolve) => s!.once('close', resolve)))),
    new Promise((resolve) => {
      timer = setTimeout(resolve, DRAIN_MS);
    }),
  ]);
  clearTimeout(timer);
  for (const s of open) s!.destroy();
}
