// The short ctr calls around a container's run: list a namespace's images, sweep away what an earlier run
// left (after a crash or a kill -9 of machined), signal a task. Each one a ctr child run to its end.
import { spawn as nodeSpawn } from 'node:child_process';
import { type CtrImage, type CtrTarget, ctrGlobal, OWNER_LABEL, parseImageList } from './ctr-args.js';
import type { SpawnFn } from './process-runner.js';
import { ProgramError, runProgram } from './run-program.js';

export interface CtrOps {
  images(opts?: { signal?: AbortSignal }): Promise<CtrImage[]>;
  /** removes every container `owner` made, with its task and snapshot */
  sweep(owner: string): Promise<void>;
  /** whether the container's task has been started (running, or stopped since) */
  taskStarted(id: string): Promise<boolean>;
  /** sends a signal (a number, or a name such as SIGKILL) to a container's task; false: no such task */
  kill(id: string, signal: number | string): Promise<boolean>;
}

/** how many times a sweep lists and deletes before it gives up, and its pause between two rounds */
const SWEEP_ROUNDS = 5;
const SWEEP_PAUSE_MS = 200;

/** ctrOps runs ctr through `spawn` (machined's own as PID 1). */
export function ctrOps(t: CtrTarget, spawn: SpawnFn = nodeSpawn): CtrOps {
  const ctr = (args: readonly string[], signal?: AbortSignal) =>
    runProgram(spawn, t.ctr, [...ctrGlobal(t), ...args], signal ? { signal } : {});
  // gone already is what a sweep wants: false, where anything else throws
  const unlessGone = (p: Promise<unknown>): Promise<boolean> =>
    p.then(
      () => true,
      (e) => {
        if (e instanceof ProgramError && /not found|does not exist/.test(e.stderr)) return false;
        throw e;
      },
    );
  return {
    images: async (opts = {}) => parseImageList(await ctr(['images', 'ls'], opts.signal)),
    async sweep(owner) {
      const owned = async () =>
        (await ctr(['containers', 'ls', '-q', `labels."${OWNER_LABEL}"==${owner}`]))
          .split('\n')
          .map((l) => l.trim())
          .filter(Boolean);
      // a ctr still attached to a container (`run --rm`) deletes it at the same time as the sweep, so a
      // delete can fail for a reason that has gone by the next listing: what counts is that none is left
      let failed: unknown;
      for (let round = 0; round < SWEEP_ROUNDS; round++) {
        if (round > 0) await new Promise((r) => setTimeout(r, SWEEP_PAUSE_MS));
        const ids = await owned();
        if (ids.length === 0) return;
        for (const id of ids) {
          try {
            // a forced delete kills a task still running; the container's delete takes its snapshot along
            await unlessGone(ctr(['tasks', 'delete', '--force', id]));
            await unlessGone(ctr(['containers', 'delete', id]));
          } catch (e) {
            failed = e;
          }
        }
      }
      const left = await owned();
      if (left.length > 0)
        throw (
          failed ??
          new Error(`containers of ${owner} still there after ${SWEEP_ROUNDS} sweeps: ${left.join(' ')}`)
        );
    },
    taskStarted: async (id) =>
      (await ctr(['tasks', 'ls']))
        .split('\n')
        .map((l) => l.trim().split(/\s+/))
        .some(([task, , status]) => task === id && status !== undefined && status !== 'CREATED'),
    kill: (id, signal) => unlessGone(ctr(['tasks', 'kill', '--signal', String(signal), id])),
  };
}
