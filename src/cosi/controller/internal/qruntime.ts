// QController runner: a keyed queue fed by watch events, worked by N workers with per-item backoff.
import type { Kind, Pointer } from '../../resource/kind.js';
import { pointerString } from '../../resource/kind.js';
import { Labels } from '../../resource/labels.js';
import { asRequeue, ControllerError, isSkipReconcile } from '../errors.js';
import { errorText, type Logger, withFields } from '../logger.js';
import type { QController, QRuntime, ReducedResourceMetadata } from '../qcontroller.js';
import { sleep } from './abort.js';
import { type StateAdapter, stateAdapter } from './adapter.js';
import { type Backoff, exponentialBackoff } from './backoff.js';
import { distinctKinds, type RunnerEnv } from './env.js';
import { ReconcileQueue } from './queue.js';
import { rateLimiter } from './rate-limit.js';
import { identity, reduce } from './reduced.js';
import { type QJob, qJobs } from './routing.js';
import { nextTurn } from './turns.js';

type Job = QJob;

interface QItem {
  readonly job: Job;
  readonly md: ReducedResourceMetadata;
}

/** a runHook that ran this long is considered healthy: its backoff starts over */
const HOOK_HEALTHY_MS = 60_000;

const pointerOnly = (p: Pointer): ReducedResourceMetadata => ({
  namespace: p.namespace,
  type: p.type,
  id: p.id,
  phase: 'running',
  labels: new Labels(),
  finalizersEmpty: true,
});

export class QControllerRunner {
  readonly name: string;
  readonly #ctrl: QController;
  readonly #env: RunnerEnv;
  readonly #queue = new ReconcileQueue<QItem>();
  readonly #backoffs = new Map<string, Backoff>();
  readonly #adapter: StateAdapter;
  readonly #logger: Logger;

  constructor(ctrl: QController, env: RunnerEnv) {
    this.name = ctrl.name;
    this.#ctrl = ctrl;
    this.#env = env;
    this.#logger = withFields(env.logger, { controller: ctrl.name });
    this.#adapter = stateAdapter({
      name: ctrl.name,
      state: env.state,
      metrics: env.metrics,
      cache: env.cache,
      limiter: rateLimiter(env.rateLimit),
      signal: env.signal,
      inputs: () => ctrl.inputs,
      outputs: ctrl.outputs,
    });
    try {
      for (const out of ctrl.outputs) env.db.addOutput(ctrl.name, out);
      for (const i of ctrl.inputs) env.db.addInput(ctrl.name, i);
    } catch (e) {
      env.db.removeController(ctrl.name);
      throw e;
    }
  }

  kinds(): Kind[] {
    return distinctKinds(this.#ctrl.inputs);
  }

  /** watchTrigger queues a reconcile (primary) or a map job (mapped) for a changed resource. */
  watchTrigger(md: ReducedResourceMetadata): void {
    for (const job of qJobs(this.#ctrl.inputs, md)) this.#put(job, md);
    this.#gaugeQueue();
  }

  async run(signal: AbortSignal): Promise<void> {
    this.#logger.debug('controller starting');
    const rt: QRuntime = this.#adapter;
    const tasks: Promise<void>[] = [];
    for (let n = 0; n < this.#ctrl.concurrency; n++) tasks.push(this.#worker(rt, signal));
    if (this.#ctrl.runHook) tasks.push(this.#runHook(rt, signal));
    tasks.push(this.#listPrimaries(signal));
    await Promise.all(tasks);
    try {
      this.#ctrl.shutdownHook?.();
    } catch (error) {
      this.#logger.error('shutdown hook failed', { error: errorText(error) });
    }
    this.#logger.debug('controller finished');
  }

  #put(job: Job, md: ReducedResourceMetadata): void {
    this.#queue.put(`${job}\0${identity(md)}`, { job, md });
  }

  #gaugeQueue(): void {
    this.#env.metrics.set('qcontroller_queue_length', this.name, this.#queue.length);
  }

  async #worker(rt: QRuntime, signal: AbortSignal): Promise<void> {
    const metrics = this.#env.metrics;
    for (;;) {
      this.#gaugeQueue();
      const item = await this.#queue.get(signal);
      if (!item) return;
      await nextTurn();
      if (signal.aborted) {
        item.release();
        return;
      }
      const { job, md } = item.value;
      const logger = withFields(this.#logger, { namespace: md.namespace, type: md.type, id: md.id, job });
      const start = performance.now();
      let error: unknown;
      let failed = false;
      try {
        await this.#runOnce(rt, job, md, signal, logger);
      } catch (e) {
        error = e;
        failed = true;
      }
      if (signal.aborted) {
        item.release();
        return;
      }
      const busy = (performance.now() - start) / 1000;
      let interval = 0;
      const requeue = failed ? asRequeue(error) : undefined;
      if (requeue) {
        interval = requeue.interval;
        error = requeue.cause;
        failed = error !== undefined;
      }
      if (failed && isSkipReconcile(error)) {
        failed = false;
        metrics.add('qcontroller_skips', this.name, 1);
        logger.debug('reconcile skipped', { reason: errorText(error) });
      }
      if (failed) metrics.add('qcontroller_crashes', this.name, 1);
      else if (interval > 0) metrics.add('qcontroller_requeues', this.name, 1);
      metrics.add(
        job === 'reconcile' ? 'qcontroller_reconcile_busy' : 'qcontroller_map_busy',
        this.name,
        busy,
      );
      if (failed) {
        if (interval <= 0) interval = this.#backoffFor(item.key).next();
        logger.error('reconcile failed', { error: errorText(error), interval, busy, requeued: !!requeue });
      } else {
        this.#backoffs.delete(item.key);
        const fields = {
          busy,
          ...(interval > 0 ? { interval } : {}),
          ...(requeue ? { requeued: true } : {}),
        };
        if (job === 'map') logger.debug('reconcile succeeded', fields);
        else logger.info('reconcile succeeded', fields);
      }
      if (interval > 0) item.requeue(performance.now() + interval);
      else item.release();
    }
  }

  async #runOnce(rt: QRuntime, job: Job, md: ReducedResourceMetadata, signal: AbortSignal, logger: Logger) {
    const metrics = this.#env.metrics;
    const ctx = { signal, logger };
    if (job === 'reconcile') {
      metrics.add('qcontroller_processed', this.name, 1);
      await this.#ctrl.reconcile(rt, { namespace: md.namespace, type: md.type, id: md.id }, ctx);
      return;
    }
    const mapped = (await this.#ctrl.mapInput?.(rt, md, ctx)) ?? [];
    metrics.add('qcontroller_mapped_in', this.name, 1);
    metrics.add('qcontroller_mapped_out', this.name, mapped.length);
    for (const p of mapped) {
      const primary = this.#ctrl.inputs.some(
        (i) => i.kind === 'q-primary' && i.namespace === p.namespace && i.type === p.type,
      );
      if (!primary)
        throw new ControllerError(
          'invalid-mapping',
          `controller ${JSON.stringify(this.name)} mapped ${pointerString(md)} to ${pointerString(p)}, which is not a primary input`,
        );
    }
    for (const p of mapped) this.#put('reconcile', pointerOnly(p));
  }

  #backoffFor(key: string): Backoff {
    let b = this.#backoffs.get(key);
    if (!b) {
      b = exponentialBackoff(this.#env.backoff);
      this.#backoffs.set(key, b);
    }
    return b;
  }

  async #runHook(rt: QRuntime, signal: AbortSignal): Promise<void> {
    const backoff = exponentialBackoff(this.#env.backoff);
    const logger = withFields(this.#logger, { hook: 'run' });
    for (;;) {
      const start = performance.now();
      try {
        await this.#ctrl.runHook!(rt, { signal, logger });
        return;
      } catch (error) {
        if (signal.aborted) return;
        if (performance.now() - start > HOOK_HEALTHY_MS) backoff.reset();
        const interval = backoff.next();
        logger.error('run hook failed', { error: errorText(error), interval });
        this.#env.metrics.add('qcontroller_crashes', this.name, 1);
        if (!(await sleep(interval, signal))) return;
      }
    }
  }

  /** listPrimaries queues every existing primary input once, retrying the list with backoff. */
  async #listPrimaries(signal: AbortSignal): Promise<void> {
    for (const i of this.#ctrl.inputs) {
      if (i.kind !== 'q-primary') continue;
      const backoff = exponentialBackoff(this.#env.backoff);
      for (;;) {
        try {
          const items = await this.#adapter.listKind(i, { signal });
          for (const r of items)
            if (i.id === undefined || r.metadata.id === i.id) this.#put('reconcile', reduce(r.metadata));
          this.#gaugeQueue();
          break;
        } catch (error) {
          if (signal.aborted) return;
          const interval = backoff.next();
          this.#logger.error('error listing primary input, retrying', {
            namespace: i.namespace,
            type: i.type,
            interval,
            error: errorText(error),
          });
          if (!(await sleep(interval, signal))) return;
        }
      }
    }
  }
}
