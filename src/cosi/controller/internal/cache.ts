// Resource cache: per (namespace, type), filled from the runtime's watch; eventually consistent.
import { matchID } from '../../resource/id-query.js';
import type { ID, Kind, Namespace, Type } from '../../resource/kind.js';
import { matchQueries } from '../../resource/label-query.js';
import type { Resource } from '../../resource/resource.js';
import type { ListOptions } from '../../state/core.js';
import { errNotFound } from '../../state/errors.js';
import type { StateEvent } from '../../state/events.js';

const key = (ns: Namespace, type: Type): string => `${ns}\0${type}`;

class KindCache {
  readonly #byID = new Map<ID, Resource>();
  readonly #ready: Promise<void>;
  #markReady!: () => void;
  bootstrapped = false;

  constructor() {
    this.#ready = new Promise((resolve) => {
      this.#markReady = resolve;
    });
  }

  get size(): number {
    return this.#byID.size;
  }

  apply(e: StateEvent): void {
    switch (e.type) {
      case 'created':
      case 'updated':
        this.#byID.set(e.resource.metadata.id, e.resource);
        break;
      case 'destroyed':
        this.#byID.delete(e.resource.metadata.id);
        break;
      case 'bootstrapped':
        this.bootstrapped = true;
        this.#markReady();
        break;
      default:
        break;
    }
  }

  /** ready resolves true once bootstrapped, false if the signal aborts first. */
  ready(signal: AbortSignal): Promise<boolean> {
    if (this.bootstrapped) return Promise.resolve(true);
    signal.throwIfAborted();
    return new Promise((resolve, reject) => {
      const onAbort = () => reject(signal.reason);
      signal.addEventListener('abort', onAbort, { once: true });
      void this.#ready.then(() => {
        signal.removeEventListener('abort', onAbort);
        resolve(true);
      });
    });
  }

  get(id: ID): Resource | undefined {
    return this.#byID.get(id);
  }

  all(): Resource[] {
    return [...this.#byID.values()];
  }
}

/**
 * ResourceCache serves controller reads for configured kinds. Reads block until the kind's watch
 * has delivered its bootstrap contents, then answer from memory with deep copies. A controller may
 * not see its own write yet; the uncached reads exist for decisions that cannot wait.
 */
export class ResourceCache {
  readonly #kinds = new Map<string, KindCache>();

  constructor(kinds: readonly Kind[]) {
    for (const k of kinds) this.#kinds.set(key(k.namespace, k.type), new KindCache());
  }

  kinds(): Kind[] {
    return [...this.#kinds.keys()].map((k) => {
      const [namespace, type] = k.split('\0') as [string, string];
      return { namespace, type };
    });
  }

  handles(ns: Namespace, type: Type): boolean {
    return this.#kinds.has(key(ns, type));
  }

  /** apply feeds one watch event of a cached kind; returns the kind's new size. */
  apply(kind: Kind, e: StateEvent): number {
    const c = this.#kinds.get(key(kind.namespace, kind.type));
    if (!c) return 0;
    c.apply(e);
    return c.size;
  }

  async get(ptr: Kind & { id: ID }, signal: AbortSignal): Promise<Resource> {
    const c = this.#kinds.get(key(ptr.namespace, ptr.type))!;
    await c.ready(signal);
    const r = c.get(ptr.id);
    if (!r) throw errNotFound(ptr);
    return r.deepCopy();
  }

  async list(kind: Kind, opts: ListOptions, signal: AbortSignal): Promise<Resource[]> {
    const c = this.#kinds.get(key(kind.namespace, kind.type))!;
    await c.ready(signal);
    return c
      .all()
      .filter(
        (r) => matchID(r.metadata.id, opts.idQuery) && matchQueries(r.metadata.labels, opts.labelQueries),
      )
      .sort((a, b) => (a.metadata.id < b.metadata.id ? -1 : a.metadata.id > b.metadata.id ? 1 : 0))
      .map((r) => r.deepCopy());
  }
}
