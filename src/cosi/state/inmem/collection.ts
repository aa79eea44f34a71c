// Collection: the resources of one (namespace, type), their event history and the watchers waiting on it.
import type { ID, Owner, Pointer } from '../../resource/kind.js';
import type { Metadata } from '../../resource/metadata.js';
import { OwnerError } from '../../resource/metadata.js';
import type { Phase } from '../../resource/phase.js';
import type { Resource } from '../../resource/resource.js';
import { versionString } from '../../resource/version.js';
import type { BackingStore } from '../backing-store.js';
import {
  errAlreadyExists,
  errNotFound,
  errOwnerConflict,
  errPendingFinalizers,
  errPhaseConflict,
  errVersionConflict,
} from '../errors.js';
import { History } from './history.js';

/** Waiter is a watcher parked until the history moves on. */
export interface Waiter {
  /** wake is called after new events; it returns true once it no longer needs waking */
  wake(): boolean;
}

/**
 * Collection is the in-memory store of one kind. Stored resources are never edited in place: a
 * write replaces the entry, so the stored object doubles as the event snapshot. Without a backing
 * store every operation is synchronous and therefore atomic; with one, writes are serialised so
 * the checks, the store write and the commit happen as one step.
 */
export class Collection {
  readonly history: History;
  readonly #items = new Map<ID, Resource>();
  /** ids in order, rebuilt lazily after a create or destroy (updates keep ids) */
  #sortedIds: ID[] | undefined;
  readonly #waiters = new Set<Waiter>();
  #wakeQueued = false;
  readonly #store: BackingStore | undefined;
  #writeTail: Promise<void> = Promise.resolve();

  constructor(
    readonly namespace: string,
    readonly type: string,
    capacity: { initial: number; max: number; gap: number },
    store: BackingStore | undefined,
  ) {
    this.history = new History(capacity.initial, capacity.max, capacity.gap);
    this.#store = store;
  }

  /** peek returns the stored snapshot; callers copy it before handing it out. */
  peek(id: ID): Resource | undefined {
    return this.#items.get(id);
  }

  /** snapshots returns the stored resources matching `match`, sorted by id, uncopied. */
  snapshots(match?: (r: Resource) => boolean): Resource[] {
    const ids = this.#ids();
    const out: Resource[] = [];
    for (const id of ids) {
      const r = this.#items.get(id)!;
      if (!match || match(r)) out.push(r);
    }
    return out;
  }

  /** inject adds a resource loaded from the backing store and announces it as created. */
  inject(r: Resource): void {
    if (!this.#items.has(r.metadata.id)) this.#sortedIds = undefined;
    this.#items.set(r.metadata.id, r);
    this.history.append('created', r);
    this.#wake();
  }

  create(r: Resource, owner: Owner, signal?: AbortSignal): void | Promise<void> {
    const store = this.#store;
    if (!store) return this.#commitCreate(this.#checkCreate(r, owner), r);
    return this.#exclusive(async () => {
      const next = this.#checkCreate(r, owner);
      await store.put(next, { signal });
      this.#commitCreate(next, r);
    });
  }

  update(
    r: Resource,
    owner: Owner,
    expectedPhase: Phase | 'any',
    signal?: AbortSignal,
  ): void | Promise<void> {
    const store = this.#store;
    if (!store) {
      const cur = this.#checkUpdate(r, owner, expectedPhase);
      return this.#commitUpdate(this.#nextOf(r, cur), cur, r);
    }
    return this.#exclusive(async () => {
      const cur = this.#checkUpdate(r, owner, expectedPhase);
      const next = this.#nextOf(r, cur);
      await store.put(next, { signal });
      this.#commitUpdate(next, cur, r);
    });
  }

  destroy(ptr: Pointer, owner: Owner, signal?: AbortSignal): void | Promise<void> {
    const store = this.#store;
    if (!store) return this.#commitDestroy(this.#checkDestroy(ptr, owner));
    return this.#exclusive(async () => {
      const cur = this.#checkDestroy(ptr, owner);
      await store.destroy(ptr, { signal });
      this.#commitDestroy(cur);
    });
  }

  /** park registers a watcher to be woken after the next write. */
  park(w: Waiter): void {
    this.#waiters.add(w);
  }

  unpark(w: Waiter): void {
    this.#waiters.delete(w);
  }

  #checkCreate(r: Resource, owner: Owner): Resource {
    const next = r.deepCopy();
    try {
      next.metadata.setOwner(owner);
    } catch (e) {
      if (e instanceof OwnerError) throw errOwnerConflict(r.metadata, e.current);
      throw e;
    }
    if (this.#items.has(next.metadata.id)) throw errAlreadyExists(r.metadata);
    next.metadata.version = 1;
    next.metadata.created = Date.now();
    return next;
  }

  #commitCreate(next: Resource, caller: Resource): void {
    this.#items.set(next.metadata.id, next);
    this.#sortedIds = undefined;
    this.history.append('created', next);
    this.#wake();
    writeBack(caller.metadata, next.metadata);
  }

  #checkUpdate(r: Resource, owner: Owner, expectedPhase: Phase | 'any'): Resource {
    const md = r.metadata;
    const cur = this.#items.get(md.id);
    if (!cur) throw errNotFound(md);
    const curMd = cur.metadata;
    if (curMd.owner !== owner) throw errOwnerConflict(curMd, curMd.owner);
    if (curMd.version !== md.version)
      throw errVersionConflict(curMd, versionString(md.version), versionString(curMd.version));
    if (expectedPhase !== 'any' && curMd.phase !== expectedPhase)
      throw errPhaseConflict(curMd, expectedPhase);
    return cur;
  }

  #nextOf(r: Resource, cur: Resource): Resource {
    const next = r.deepCopy();
    const md = next.metadata;
    md.version = (cur.metadata.version ?? 0) + 1;
    md.updated = Date.now();
    md.created = cur.metadata.created;
    return next;
  }

  #commitUpdate(next: Resource, cur: Resource, caller: Resource): void {
    this.#items.set(next.metadata.id, next);
    this.history.append('updated', next, cur);
    this.#wake();
    writeBack(caller.metadata, next.metadata);
  }

  #checkDestroy(ptr: Pointer, owner: Owner): Resource {
    const cur = this.#items.get(ptr.id);
    if (!cur) throw errNotFound(ptr);
    const md = cur.metadata;
    if (md.owner !== owner) throw errOwnerConflict(md, md.owner);
    if (!md.finalizers.empty()) throw errPendingFinalizers(md, md.finalizers.list());
    return cur;
  }

  #commitDestroy(cur: Resource): void {
    this.#items.delete(cur.metadata.id);
    this.#sortedIds = undefined;
    this.history.append('destroyed', cur);
    this.#wake();
  }

  #ids(): ID[] {
    // the default sort compares UTF-16 code units: Go's byte order for ASCII ids
    if (!this.#sortedIds) this.#sortedIds = [...this.#items.keys()].sort();
    return this.#sortedIds;
  }

  /** wake defers to a microtask, so a burst of synchronous writes wakes each watcher once. */
  #wake(): void {
    if (this.#wakeQueued || this.#waiters.size === 0) return;
    this.#wakeQueued = true;
    queueMicrotask(this.#wakeAll);
  }

  readonly #wakeAll = (): void => {
    this.#wakeQueued = false;
    for (const w of this.#waiters) if (w.wake()) this.#waiters.delete(w);
  };

  /** exclusive runs one backing-store write at a time, in call order. */
  #exclusive(fn: () => Promise<void>): Promise<void> {
    const run = this.#writeTail.then(fn);
    this.#writeTail = run.then(
      () => undefined,
      () => undefined,
    );
    return run;
  }
}

/** writeBack gives the caller's object what the state assigned. */
function writeBack(dst: Metadata, src: Metadata): void {
  dst.version = src.version;
  dst.owner = src.owner;
  dst.created = src.created;
  dst.updated = src.updated;
}
