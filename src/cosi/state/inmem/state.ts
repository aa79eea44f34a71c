// InmemState: every namespace in memory, one collection per (namespace, type), optionally backed by a store.
import type { Kind, Pointer } from '../../resource/kind.js';
import type { Resource } from '../../resource/resource.js';
import type {
  CoreState,
  CreateOptions,
  DestroyOptions,
  GetOptions,
  ListOptions,
  UpdateOptions,
  WatchKindOptions,
  WatchOptions,
} from '../core.js';
import { errNotFound } from '../errors.js';
import type { StateEvent, WatchStream } from '../events.js';
import { Collection } from './collection.js';
import { matcher } from './match.js';
import { type InmemOptions, type ResolvedOptions, resolveOptions } from './options.js';
import { watchKind, watchKindAggregated, watchResource } from './watch.js';

/**
 * newInmemState builds the reference CoreState: all namespaces, kept in memory. Reads return
 * deep copies, but watch events are immutable snapshots shared by every watcher: deepCopy an
 * event's resource before editing it.
 */
export function newInmemState(opts?: InmemOptions): CoreState {
  return new InmemState(resolveOptions(opts));
}

class InmemState implements CoreState {
  readonly #opts: ResolvedOptions;
  readonly #capacity: { initial: number; max: number; gap: number };
  /** namespace → type → collection, created on first write or watch */
  readonly #namespaces = new Map<string, Map<string, Collection>>();
  #loaded: boolean;
  #loading: Promise<void> | undefined;

  constructor(opts: ResolvedOptions) {
    this.#opts = opts;
    this.#capacity = { initial: opts.initialCapacity, max: opts.maxCapacity, gap: opts.gap };
    this.#loaded = opts.store === undefined;
  }

  async get(ptr: Pointer, opts?: GetOptions): Promise<Resource> {
    opts?.signal?.throwIfAborted();
    if (!this.#loaded) await this.#load();
    const r = this.#peek(ptr)?.peek(ptr.id);
    if (!r) throw errNotFound(ptr);
    return r.deepCopy();
  }

  async list(kind: Kind, opts?: ListOptions): Promise<Resource[]> {
    opts?.signal?.throwIfAborted();
    if (!this.#loaded) await this.#load();
    const c = this.#peek(kind);
    if (!c) return [];
    const items = c.snapshots(opts ? matcher(opts) : undefined);
    for (let i = 0; i < items.length; i++) items[i] = items[i]!.deepCopy();
    return items;
  }

  async create(r: Resource, opts?: CreateOptions): Promise<void> {
    opts?.signal?.throwIfAborted();
    if (!this.#loaded) await this.#load();
    await this.#collection(r.metadata).create(r, opts?.owner ?? '', opts?.signal);
  }

  async update(r: Resource, opts?: UpdateOptions): Promise<void> {
    opts?.signal?.throwIfAborted();
    if (!this.#loaded) await this.#load();
    await this.#collection(r.metadata).update(
      r,
      opts?.owner ?? '',
      opts?.expectedPhase ?? 'running',
      opts?.signal,
    );
  }

  async destroy(ptr: Pointer, opts?: DestroyOptions): Promise<void> {
    opts?.signal?.throwIfAborted();
    if (!this.#loaded) await this.#load();
    await this.#collection(ptr).destroy(ptr, opts?.owner ?? '', opts?.signal);
  }

  async watch(ptr: Pointer, opts?: WatchOptions): Promise<WatchStream<StateEvent>> {
    opts?.signal?.throwIfAborted();
    if (!this.#loaded) await this.#load();
    return watchResource(this.#collection(ptr), ptr.id, opts);
  }

  async watchKind(kind: Kind, opts?: WatchKindOptions): Promise<WatchStream<StateEvent>> {
    opts?.signal?.throwIfAborted();
    if (!this.#loaded) await this.#load();
    return watchKind(this.#collection(kind), opts);
  }

  async watchKindAggregated(kind: Kind, opts?: WatchKindOptions): Promise<WatchStream<StateEvent[]>> {
    opts?.signal?.throwIfAborted();
    if (!this.#loaded) await this.#load();
    return watchKindAggregated(this.#collection(kind), opts);
  }

  #peek(k: Kind): Collection | undefined {
    return this.#namespaces.get(k.namespace)?.get(k.type);
  }

  #collection(k: Kind): Collection {
    let types = this.#namespaces.get(k.namespace);
    if (!types) {
      types = new Map();
      this.#namespaces.set(k.namespace, types);
    }
    let c = types.get(k.type);
    if (!c) {
      c = new Collection(k.namespace, k.type, this.#capacity, this.#opts.store);
      types.set(k.type, c);
    }
    return c;
  }

  /** load reads the backing store once; a failed load fails the operation and the next one retries. */
  #load(): Promise<void> {
    if (!this.#loading) {
      const store = this.#opts.store!;
      // inject only after a complete load, so a retried load cannot announce a resource twice
      const loaded: Resource[] = [];
      this.#loading = store
        .load((r) => loaded.push(r))
        .then(
          () => {
            for (const r of loaded) this.#collection(r.metadata).inject(r);
            this.#loaded = true;
          },
          (e: unknown) => {
            this.#loading = undefined;
            throw e;
          },
        );
    }
    return this.#loading;
  }
}
