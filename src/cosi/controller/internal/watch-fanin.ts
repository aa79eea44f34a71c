// Watch fan-in: one aggregated watch per distinct (namespace, type) of any input, folded into a dedup
// map so a burst of changes to one resource becomes one notification.
import type { Kind } from '../../resource/kind.js';
import type { Metadata } from '../../resource/metadata.js';
import type { StateEvent, WatchStream } from '../../state/events.js';
import type { State } from '../../state/state.js';
import { errorText, type Logger } from '../logger.js';
import type { ReducedResourceMetadata } from '../qcontroller.js';
import type { ResourceCache } from './cache.js';
import type { MetricsRegistry } from './metrics.js';
import { identity, reduce } from './reduced.js';

export interface FanInOptions {
  readonly state: State;
  readonly cache: ResourceCache;
  readonly metrics: MetricsRegistry;
  readonly logger: Logger;
  /** deliver is called once per deduplicated change, synchronously and in arrival order of first change */
  readonly deliver: (md: ReducedResourceMetadata) => void;
  /** fail reports a watch that errored or ended on its own: the runtime must stop */
  readonly fail: (error: Error) => void;
}

const kindKey = (k: Kind): string => `${k.namespace}\0${k.type}`;

export class WatchFanIn {
  readonly #o: FanInOptions;
  /** every kind to watch; the promise settles when its watch is established (after start) */
  readonly #watched = new Map<string, { kind: Kind; ready?: Promise<void> }>();
  readonly #pending = new Map<string, ReducedResourceMetadata>();
  readonly #consumers = new Set<Promise<void>>();
  #signal: AbortSignal | undefined;
  #drain: ReturnType<typeof setImmediate> | undefined;

  constructor(o: FanInOptions) {
    this.#o = o;
  }

  /** watch records a kind; once started it also establishes the watch (shared by concurrent callers). */
  watch(kind: Kind): Promise<void> {
    const key = kindKey(kind);
    let w = this.#watched.get(key);
    if (!w) {
      w = { kind: { namespace: kind.namespace, type: kind.type } };
      this.#watched.set(key, w);
    }
    if (!this.#signal) return Promise.resolve();
    if (w.ready) return w.ready;
    const entry = w;
    const ready = this.#establish(entry.kind).catch((e) => {
      entry.ready = undefined; // let a later call try again
      throw e;
    });
    entry.ready = ready;
    return ready;
  }

  /** start establishes every recorded watch; it rejects if any cannot be established. */
  async start(signal: AbortSignal): Promise<void> {
    this.#signal = signal;
    await Promise.all([...this.#watched.values()].map((w) => this.watch(w.kind)));
  }

  /** stop (after the start signal aborted) waits for every watch to close and drops undelivered notifications. */
  async stop(): Promise<void> {
    await Promise.allSettled([...this.#watched.values()].map((w) => w.ready));
    while (this.#consumers.size > 0) await Promise.all(this.#consumers);
    if (this.#drain !== undefined) clearImmediate(this.#drain);
    this.#drain = undefined;
    this.#pending.clear();
  }

  async #establish(kind: Kind): Promise<void> {
    const signal = this.#signal!;
    const cached = this.#o.cache.handles(kind.namespace, kind.type);
    // cached kinds need the contents; the others only a bookmark, so a remote watch can resume
    const stream = await this.#o.state.watchKindAggregated(kind, {
      signal,
      ...(cached ? { bootstrapContents: true } : { bootstrapBookmark: true }),
    });
    const consumer = this.#consume(kind, stream, cached, signal);
    this.#consumers.add(consumer);
    void consumer.finally(() => this.#consumers.delete(consumer));
  }

  async #consume(kind: Kind, stream: WatchStream<StateEvent[]>, cached: boolean, signal: AbortSignal) {
    let bootstrapped = !cached;
    try {
      for await (const batch of stream) {
        for (const e of batch) {
          if (e.type === 'errored') {
            this.#o.fail(e.error);
            return;
          }
          if (e.type === 'noop') continue;
          if (cached) {
            this.#o.metrics.set('cached_resources', kind.type, this.#o.cache.apply(kind, e));
            if (e.type === 'bootstrapped') bootstrapped = true;
            if (!bootstrapped || e.type === 'bootstrapped') continue; // contents only fill the cache
          } else if (e.type === 'bootstrapped') continue;
          if (!signal.aborted) this.#fold(e.resource.metadata);
        }
      }
      if (!signal.aborted)
        this.#o.fail(new Error(`watch on ${kind.type}(${kind.namespace}) ended unexpectedly`));
    } catch (e) {
      if (signal.aborted) return;
      this.#o.logger.error('watch failed', {
        namespace: kind.namespace,
        type: kind.type,
        error: errorText(e),
      });
      this.#o.fail(e instanceof Error ? e : new Error(String(e)));
    } finally {
      stream.close();
    }
  }

  // A re-set key keeps its place in the Map and takes the newest value: bursts collapse.
  #fold(md: Metadata): void {
    this.#pending.set(identity(md), reduce(md));
    if (this.#drain === undefined) this.#drain = setImmediate(() => this.#deliver());
  }

  #deliver(): void {
    this.#drain = undefined;
    for (const [key, md] of this.#pending) {
      this.#pending.delete(key);
      try {
        this.#o.deliver(md);
      } catch (error) {
        this.#o.logger.error('delivering watch event failed', { error: errorText(error) });
      }
    }
  }
}
