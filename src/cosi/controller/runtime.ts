// Runtime: runs registered controllers over one State, wiring watches, dependencies and restarts.
import { setMaxListeners } from 'node:events';
import type { Kind } from '../resource/kind.js';
import type { State } from '../state/state.js';
import type { Controller } from './controller.js';
import type { DependencyGraph } from './dependency.js';
import { ControllerError, isAbort } from './errors.js';
import { onAbort } from './internal/abort.js';
import { DEFAULT_BACKOFF } from './internal/backoff.js';
import { ResourceCache } from './internal/cache.js';
import { DependencyDatabase } from './internal/dependency-db.js';
import type { RunnerEnv } from './internal/env.js';
import { metricsRegistry } from './internal/metrics.js';
import { QControllerRunner } from './internal/qruntime.js';
import { ControllerRunner } from './internal/rruntime.js';
import { WatchFanIn } from './internal/watch-fanin.js';
import { errorText, type Logger, stderrLogger } from './logger.js';
import type { RuntimeMetrics } from './metrics.js';
import type { RuntimeOptions } from './options.js';
import type { QController, ReducedResourceMetadata } from './qcontroller.js';
import { kindOf } from './reader-writer.js';

type Runner = ControllerRunner | QControllerRunner;

const STOPPED = AbortSignal.abort();

/**
 * Runtime is the controller engine. Register controllers, then run({ signal }) until the signal
 * aborts. A controller that throws is logged and restarted with backoff; one that returns is
 * finished. run rejects only when a watch fails, since events would be lost from then on.
 */
export class Runtime {
  readonly #db = new DependencyDatabase();
  readonly #runners = new Map<string, Runner>();
  readonly #tasks = new Set<Promise<void>>();
  /** runners already started: register() during run's start-up must not start one twice */
  readonly #launched = new WeakSet<Runner>();
  readonly #metrics;
  readonly #cache: ResourceCache;
  readonly #fanIn: WatchFanIn;
  readonly #env: RunnerEnv;
  readonly #logger: Logger;
  #started = false;
  #signal: AbortSignal = STOPPED;
  #stop: ((error?: Error) => void) | undefined;

  constructor(state: State, opts: RuntimeOptions = {}) {
    this.#logger = opts.logger ?? stderrLogger('warn');
    this.#metrics = metricsRegistry(opts.metrics ?? true);
    this.#cache = new ResourceCache((opts.cachedResources ?? []).map((k) => kindOf(k)));
    this.#fanIn = new WatchFanIn({
      state,
      cache: this.#cache,
      metrics: this.#metrics,
      logger: this.#logger,
      deliver: (md) => this.#deliver(md),
      fail: (error) => this.#stop?.(error),
    });
    this.#env = {
      state,
      db: this.#db,
      metrics: this.#metrics,
      cache: this.#cache,
      logger: this.#logger,
      backoff: { ...DEFAULT_BACKOFF, ...opts.restartBackoff },
      rateLimit: opts.changeRateLimit,
      watch: (kind) => this.#fanIn.watch(kind),
      signal: () => this.#signal,
    };
    // cached kinds are watched even when no input names them, or their reads would never unblock
    for (const k of this.#cache.kinds()) void this.#fanIn.watch(k);
  }

  /** register adds a controller; once running, it starts at once (after its watches are established). */
  register(controller: Controller): void {
    this.#add(controller.name, () => new ControllerRunner(controller, this.#env));
  }

  /** registerQ adds a QController. */
  registerQ(controller: QController): void {
    this.#add(controller.name, () => new QControllerRunner(controller, this.#env));
  }

  /** run may be called once; it resolves when the signal aborts and every controller has stopped. */
  async run({ signal }: { signal: AbortSignal }): Promise<void> {
    if (this.#started) throw new ControllerError('already-started', 'runtime has already been started');
    this.#started = true;
    if (signal.aborted) return;
    const internal = new AbortController();
    // every controller waits on this one signal at once; that is by design, not a listener leak
    setMaxListeners(0, internal.signal);
    let failure: Error | undefined;
    const stopped = new Promise<void>((resolve) => {
      this.#stop = (error) => {
        failure ??= error;
        internal.abort(error ?? signal.reason);
        resolve();
      };
    });
    const unsubscribe = onAbort(signal, () => this.#stop?.());
    this.#signal = internal.signal;
    try {
      await this.#fanIn.start(internal.signal);
      for (const runner of this.#runners.values()) this.#start(runner);
    } catch (error) {
      if (!(internal.signal.aborted && isAbort(error)))
        this.#stop?.(error instanceof Error ? error : new Error(String(error)));
    }
    await stopped;
    unsubscribe();
    while (this.#tasks.size > 0) await Promise.all(this.#tasks);
    await this.#fanIn.stop();
    this.#stop = undefined;
    if (failure)
      throw new ControllerError('watch-failed', `controller runtime watch error: ${errorText(failure)}`, {
        cause: failure,
      });
  }

  /** dependencyGraph exports the controller ↔ resource edges. */
  dependencyGraph(): DependencyGraph {
    return this.#db.export();
  }

  /** metrics is a snapshot of the counters (empty maps when metrics are disabled). */
  metrics(): RuntimeMetrics {
    return this.#metrics.snapshot();
  }

  #add(name: string, make: () => Runner): void {
    if (this.#runners.has(name))
      throw new ControllerError(
        'already-registered',
        `controller ${JSON.stringify(name)} already registered`,
      );
    const runner = make();
    this.#runners.set(name, runner);
    for (const k of runner.kinds()) void this.#fanIn.watch(k).catch(() => {}); // failures surface in #start
    if (this.#stop && !this.#signal.aborted) this.#start(runner);
  }

  #start(runner: Runner): void {
    if (this.#launched.has(runner)) return;
    this.#launched.add(runner);
    const signal = this.#signal;
    const task = (async () => {
      try {
        await Promise.all(runner.kinds().map((k: Kind) => this.#fanIn.watch(k)));
      } catch (error) {
        if (!signal.aborted) this.#stop?.(error instanceof Error ? error : new Error(String(error)));
        return;
      }
      try {
        await runner.run(signal);
      } catch (error) {
        // runners catch everything a controller throws; this is a runtime bug, but never a crash
        this.#logger.error('controller runner failed', { controller: runner.name, error: errorText(error) });
      }
    })();
    this.#tasks.add(task);
    void task.finally(() => this.#tasks.delete(task));
  }

  #deliver(md: ReducedResourceMetadata): void {
    for (const name of this.#db.dependents(md.namespace, md.type, md.id))
      this.#runners.get(name)?.watchTrigger(md);
  }
}
