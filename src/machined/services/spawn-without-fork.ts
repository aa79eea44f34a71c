// spawnWithoutFork: child_process.spawn's shape for the programs machined starts, through posix_spawn.
// libuv forks the whole of PID 1 and blocks the event loop until the child has exec'd (udevd's start:
// ~0.1 s under emulation, with the maintenance API's first client waiting), then every page PID 1
// writes is copied once more; posix_spawn does neither, and its exit comes through the reaper.
import { spawn as nodeSpawn, type SpawnOptions } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { closeSync } from 'node:fs';
import { Socket } from 'node:net';
import { constants } from 'node:os';
import type { Readable } from 'node:stream';
import { pipe } from '../../sys/pipe.js';
import { posixSpawn } from '../../sys/spawn.js';
import type { ExitStatus } from '../../sys/wait.js';
import { beginStart, reaperAttached } from '../spawned-exits.js';
import { findProgram } from './cap-launcher.js';
import type { ServiceChild } from './process-runner.js';

const signalNames = new Map<number, NodeJS.Signals>(
  Object.entries(constants.signals).map(([name, no]) => [no, name as NodeJS.Signals]),
);

/** PosixChild is a started program as child_process shows one: 'spawn' or 'error', then 'exit'. */
class PosixChild extends EventEmitter implements ServiceChild {
  pid: number | undefined;
  readonly stdout: Readable | null;
  readonly stderr: Readable | null;
  #ended = false;

  constructor(stdout: Readable | null, stderr: Readable | null) {
    super();
    this.stdout = stdout;
    this.stderr = stderr;
  }

  kill(signal: NodeJS.Signals | number = 'SIGTERM'): boolean {
    // after the exit the pid may already name another process
    if (this.pid === undefined || this.#ended) return false;
    try {
      process.kill(this.pid, signal);
      return true;
    } catch (e) {
      this.emit('error', e);
      return false;
    }
  }

  started(pid: number): void {
    this.pid = pid;
    this.emit('spawn');
  }

  exited(status: ExitStatus): void {
    this.#ended = true;
    if (status.kind === 'exited') this.emit('exit', status.code, null);
    else this.emit('exit', null, signalNames.get(status.signal) ?? null);
  }
}

type Pipe = { read: number; write: number } | undefined;

function pipeFor(mode: unknown): Pipe {
  if (mode === 'ignore') return undefined;
  if (mode !== 'pipe') throw new Error(`spawnWithoutFork: stdio ${JSON.stringify(mode)} is not supported`);
  const [read, write] = pipe();
  return { read, write };
}

const readerOf = (p: Pipe): Readable | null =>
  p ? new Socket({ fd: p.read, readable: true, writable: false }) : null;

/**
 * spawnWithoutFork starts `file` as child_process.spawn would, for what processRunner asks: stdin from
 * /dev/null, stdout and stderr each a pipe or ignored, env and cwd. posix_spawn cannot switch uid or
 * gid, so a child that runs as another user is forked by Node as before. It needs machined's reaper,
 * which delivers the exit.
 */
export function spawnWithoutFork(
  file: string,
  args: readonly string[],
  opts: SpawnOptions = {},
): ServiceChild {
  if (opts.uid !== undefined || opts.gid !== undefined) return nodeSpawn(file, args, opts);
  if (!reaperAttached()) throw new Error('spawnWithoutFork: no reaper runs to deliver the exit');
  const env = opts.env ?? process.env;
  const path = findProgram(file, env.PATH ?? '/usr/bin:/bin');
  const stdio = Array.isArray(opts.stdio) ? opts.stdio : [opts.stdio, opts.stdio, opts.stdio];
  if (stdio[0] !== undefined && stdio[0] !== 'ignore')
    throw new Error(`spawnWithoutFork: stdin ${JSON.stringify(stdio[0])} is not supported`);
  const out = pipeFor(stdio[1] ?? 'ignore');
  let err: Pipe;
  try {
    err = pipeFor(stdio[2] ?? 'ignore');
  } catch (e) {
    if (out) for (const fd of [out.read, out.write]) closeSync(fd);
    throw e;
  }
  const child = new PosixChild(readerOf(out), readerOf(err));
  const end = beginStart();
  // the child holds its own copies once started: ours would keep the pipes open after it ends
  const closeWriteEnds = () => {
    for (const p of [out, err]) if (p) closeSync(p.write);
  };
  let starting: Promise<number>;
  try {
    starting = posixSpawn({
      path,
      argv: [file, ...args],
      env: Object.entries(env)
        .filter((e): e is [string, string] => e[1] !== undefined)
        .map(([k, v]) => `${k}=${v}`),
      ...(opts.cwd !== undefined ? { cwd: String(opts.cwd) } : {}),
      ...(out ? { stdout: out.write } : {}),
      ...(err ? { stderr: err.write } : {}),
    });
  } catch (e) {
    starting = Promise.reject(e);
  }
  starting.then(
    (pid) => {
      closeWriteEnds();
      try {
        child.started(pid);
      } finally {
        // 'spawn' comes before 'exit', even for a child the reaper took already; and the start ends
        // even if a 'spawn' listener threw, or the reaper would hold every unclaimed status for good
        end({ pid, onExit: (s) => child.exited(s) });
      }
    },
    (e: unknown) => {
      closeWriteEnds();
      end();
      child.stdout?.destroy();
      child.stderr?.destroy();
      // as child_process reports it, but never as an unhandled error inside PID 1
      if (child.listenerCount('error') > 0) child.emit('error', e);
    },
  );
  return child;
}
