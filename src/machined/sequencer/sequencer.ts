// Sequencer: runs one sequence at a time, phase after phase, with takeover, events and timed log lines.
import { nextTurn } from '../../cosi/controller/index.js';
import type { EventBus } from '../events/bus.js';
import type { ErrorCode } from '../events/event.js';
import { formatDuration } from './duration.js';
import { SequencerError } from './errors.js';
import type { Phase, SequenceTable, Task } from './phase.js';
import { canTakeOver, type SequenceName } from './sequence.js';

export interface SequencerOptions {
  readonly events: EventBus;
  readonly sequences: SequenceTable;
  /** one line per call into machined's log; default: dropped */
  readonly log?: (line: string) => void;
  /** how long a takeover waits for the cancelled sequence to unwind; default 1 min, as upstream */
  readonly takeoverTimeoutMs?: number;
}

export interface RunOptions {
  readonly signal?: AbortSignal;
  /** the API request that asked for the sequence; its events carry this actor id */
  readonly actorId?: string;
  readonly data?: unknown;
  /** cancel whatever runs, regardless of the takeover rules */
  readonly force?: boolean;
}

interface Running {
  readonly name: SequenceName;
  readonly abort: AbortController;
  readonly done: Promise<unknown>;
}

export class Sequencer {
  readonly #opts: SequencerOptions;
  readonly #log: (line: string) => void;
  #current: Running | undefined;

  constructor(opts: SequencerOptions) {
    this.#opts = opts;
    this.#log = opts.log ?? (() => {});
  }

  /** running names the sequence in progress (including one still waiting to take over). */
  running(): SequenceName | undefined {
    return this.#current?.name;
  }

  /**
   * run executes a sequence to the end. It rejects with `locked` when another sequence runs and
   * may not be cancelled, `canceled` when taken over, `failed` when a task failed.
   */
  async run(name: SequenceName, opts: RunOptions = {}): Promise<void> {
    const actorId = opts.actorId ?? '';
    const build = this.#opts.sequences[name];
    if (!build) throw new SequencerError('unsupported', `${name} sequence: not supported yet`);
    const prev = this.#current;
    if (prev && !opts.force && !canTakeOver(name, prev.name)) {
      this.#publishError(name, 'LOCKED', 'sequence not started: locked', actorId);
      throw new SequencerError('locked', `${name} sequence: locked by the running ${prev.name} sequence`);
    }
    const abort = new AbortController();
    let settle!: () => void;
    const done = new Promise<void>((resolve) => {
      settle = resolve;
    });
    const me: Running = { name, abort, done };
    this.#current = me;
    // while the cancelled sequence unwinds it still runs; if it never does, it stays the running one
    let prevRunning = prev !== undefined;
    try {
      if (prev) await this.#takeOver(prev, name);
      prevRunning = false;
      const signal = opts.signal ? AbortSignal.any([opts.signal, abort.signal]) : abort.signal;
      throwIfAborted(signal); // taken over (or given up) while waiting to take over
      await this.#run(name, build(opts.data), { signal, actorId, data: opts.data });
    } catch (error) {
      const err = abort.signal.aborted
        ? (abort.signal.reason as SequencerError)
        : opts.signal?.aborted
          ? new SequencerError('canceled', `${name} sequence: cancelled by its caller`, { cause: error })
          : asSequencerError(name, error);
      this.#log(`${name} sequence: failed: ${err.message}`);
      this.#publishError(
        name,
        err.code === 'canceled' ? 'CANCELED' : 'FATAL',
        `sequence failed: ${err.message}`,
        actorId,
      );
      throw err;
    } finally {
      if (this.#current === me) this.#current = prevRunning ? prev : undefined;
      settle();
    }
  }

  async #takeOver(prev: Running, name: SequenceName): Promise<void> {
    this.#log(`${name} sequence: cancelling the running ${prev.name} sequence`);
    prev.abort.abort(new SequencerError('canceled', `${prev.name} sequence: taken over by ${name}`));
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () =>
          reject(
            new SequencerError('takeover-timeout', `${name} sequence: ${prev.name} did not stop in time`),
          ),
        this.#opts.takeoverTimeoutMs ?? 60_000,
      );
    });
    try {
      await Promise.race([prev.done, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  async #run(name: SequenceName, phases: readonly Phase[], ctx: PhaseContext): Promise<void> {
    const t0 = performance.now();
    this.#opts.events.publish({ type: 'machine.SequenceEvent', sequence: name, action: 'START' }, ctx);
    this.#log(`${name} sequence: ${phases.length} phase(s)`);
    try {
      for (const [i, p] of phases.entries()) {
        throwIfAborted(ctx.signal);
        const progress = `${i + 1}/${phases.length}`;
        if (p.when && !p.when()) {
          this.#log(`phase ${p.name} (${progress}): skipped`);
          continue;
        }
        await this.#phase(name, p, progress, ctx);
      }
      this.#log(`${name} sequence: done: ${formatDuration(performance.now() - t0)}`);
    } catch (e) {
      // as upstream, the stop of a failed sequence carries its error: a boot that failed is not running
      const code = ctx.signal.aborted ? 'CANCELED' : 'FATAL';
      const error = { code, message: e instanceof Error ? e.message : String(e) } as const;
      this.#opts.events.publish(
        { type: 'machine.SequenceEvent', sequence: name, action: 'STOP', error },
        ctx,
      );
      throw e;
    }
    this.#opts.events.publish({ type: 'machine.SequenceEvent', sequence: name, action: 'STOP' }, ctx);
  }

  async #phase(name: SequenceName, p: Phase, progress: string, ctx: PhaseContext): Promise<void> {
    const t0 = performance.now();
    const { events } = this.#opts;
    events.publish({ type: 'machine.PhaseEvent', phase: p.name, action: 'START' }, ctx);
    this.#log(`phase ${p.name} (${progress}): ${p.tasks.length} tasks(s)`);
    // a failing task stops its siblings, as an errgroup with a context would
    const siblings = new AbortController();
    const signal = AbortSignal.any([ctx.signal, siblings.signal]);
    try {
      // each phase starts in a turn of the event loop of its own, in line with the controllers'
      // reconciles: API calls get in between, where a sequence started at boot (spawning udevd …) would
      // otherwise run back to back with everything else starting then. Its tasks start together.
      await nextTurn();
      const results = await Promise.allSettled(
        p.tasks.map((t, j) =>
          this.#task(name, t, `${j + 1}/${p.tasks.length}`, { ...ctx, signal }).catch((error: unknown) => {
            siblings.abort(error);
            throw error;
          }),
        ),
      );
      const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
      if (failed) throw failed.reason;
      this.#log(`phase ${p.name} (${progress}): done, ${formatDuration(performance.now() - t0)}`);
    } finally {
      events.publish({ type: 'machine.PhaseEvent', phase: p.name, action: 'STOP' }, ctx);
    }
  }

  async #task(name: SequenceName, t: Task, progress: string, ctx: PhaseContext): Promise<void> {
    const t0 = performance.now();
    const { events } = this.#opts;
    const prefix = `task ${t.name} (${progress}):`;
    events.publish({ type: 'machine.TaskEvent', task: t.name, action: 'START' }, ctx);
    this.#log(`${prefix} starting`);
    try {
      throwIfAborted(ctx.signal);
      await t.run({
        signal: ctx.signal,
        sequence: name,
        data: ctx.data,
        log: (line) => this.#log(`${prefix} ${line}`),
      });
      this.#log(`${prefix} done, ${formatDuration(performance.now() - t0)}`);
    } catch (error) {
      this.#log(`${prefix} failed, ${error instanceof Error ? error.message : String(error)}`);
      throw error;
    } finally {
      events.publish({ type: 'machine.TaskEvent', task: t.name, action: 'STOP' }, ctx);
    }
  }

  #publishError(name: SequenceName, code: ErrorCode, message: string, actorId: string): void {
    this.#opts.events.publish(
      { type: 'machine.SequenceEvent', sequence: name, action: 'NOOP', error: { code, message } },
      { actorId },
    );
  }
}

interface PhaseContext {
  readonly signal: AbortSignal;
  readonly actorId: string;
  readonly data: unknown;
}

const throwIfAborted = (signal: AbortSignal): void => {
  if (signal.aborted) throw signal.reason;
};

/** asSequencerError keeps a cancellation a cancellation, and wraps anything else as a failure. */
function asSequencerError(name: SequenceName, error: unknown): SequencerError {
  if (error instanceof SequencerError) return error;
  const message = error instanceof Error ? error.message : String(error);
  return new SequencerError('failed', `${name} sequence: ${message}`, { cause: error });
}
