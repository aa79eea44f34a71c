// Reconcile queue: keyed items released in FIFO order of release time, never handed out twice at once.

/** QueueItem is one handed-out key; call release() or requeue(at) exactly once (extra calls are ignored). */
export interface QueueItem<V> {
  readonly key: string;
  readonly value: V;
  release(): void;
  /** requeue puts the key back for release at `at` (ms, on the queue's clock) without overwriting a newer value. */
  requeue(at: number): void;
}

interface Entry<V> {
  readonly key: string;
  value: V;
  at: number;
}

/**
 * ReconcileQueue gives QController workers their items:
 * - put on a queued key overwrites its value and keeps the earlier release time;
 * - a key is "on hold" while handed out: puts for it are parked and re-queued right at release,
 *   so the same key is never processed concurrently and a change seen mid-reconcile is not lost;
 * - requeue(at) re-inserts a released key with a delay, never overwriting a newer value.
 */
export class ReconcileQueue<V> {
  readonly #items: Entry<V>[] = [];
  readonly #onHold = new Set<string>();
  readonly #parked = new Map<string, V>();
  readonly #waiters: Array<(item: QueueItem<V> | undefined) => void> = [];
  readonly #now: () => number;
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(now: () => number = () => performance.now()) {
    this.#now = now;
  }

  /** length counts queued and parked keys (not the ones being processed). */
  get length(): number {
    return this.#items.length + this.#parked.size;
  }

  put(key: string, value: V): void {
    if (this.#onHold.has(key)) {
      this.#parked.set(key, value);
      return;
    }
    this.#push(key, value, this.#now(), true);
    this.#dispatch();
  }

  /** get resolves with the next released item, or undefined once the signal aborts. */
  get(signal: AbortSignal): Promise<QueueItem<V> | undefined> {
    if (signal.aborted) return Promise.resolve(undefined);
    return new Promise((resolve) => {
      const waiter = (item: QueueItem<V> | undefined) => {
        signal.removeEventListener('abort', onAbort);
        resolve(item);
      };
      const onAbort = () => {
        const at = this.#waiters.indexOf(waiter);
        if (at >= 0) this.#waiters.splice(at, 1);
        waiter(undefined);
        this.#dispatch(); // drops the timer when nobody waits any more
      };
      signal.addEventListener('abort', onAbort, { once: true });
      this.#waiters.push(waiter);
      this.#dispatch();
    });
  }

  #push(key: string, value: V, at: number, overwrite: boolean): void {
    const idx = this.#items.findIndex((e) => e.key === key);
    if (idx >= 0) {
      const e = this.#items[idx]!;
      if (overwrite) e.value = value;
      if (at >= e.at) return; // keep the earlier release time (and the place in line)
      this.#items.splice(idx, 1);
      value = e.value;
    }
    // binary search for the slot after every entry due at or before `at` (ties go to the tail: FIFO)
    let lo = 0;
    let hi = this.#items.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.#items[mid]!.at <= at) lo = mid + 1;
      else hi = mid;
    }
    this.#items.splice(lo, 0, { key, value, at });
  }

  #release(key: string, value: V, at?: number): void {
    this.#onHold.delete(key);
    if (at !== undefined) this.#push(key, value, at, false);
    if (this.#parked.has(key)) {
      const parked = this.#parked.get(key) as V;
      this.#parked.delete(key);
      this.#push(key, parked, this.#now(), true);
    }
    this.#dispatch();
  }

  #dispatch(): void {
    if (this.#timer !== undefined) {
      clearTimeout(this.#timer);
      this.#timer = undefined;
    }
    const now = this.#now();
    while (this.#waiters.length > 0 && this.#items.length > 0 && this.#items[0]!.at <= now) {
      const e = this.#items.shift()!;
      this.#onHold.add(e.key);
      this.#waiters.shift()!(this.#handOut(e));
    }
    // a timer runs only while someone waits for a delayed item, so a stopped queue holds none
    if (this.#waiters.length > 0 && this.#items.length > 0) {
      this.#timer = setTimeout(() => this.#dispatch(), this.#items[0]!.at - now);
    }
  }

  #handOut(e: Entry<V>): QueueItem<V> {
    let done = false;
    const finish = (at?: number) => {
      if (done) return;
      done = true;
      this.#release(e.key, e.value, at);
    };
    return { key: e.key, value: e.value, release: () => finish(), requeue: (at) => finish(at) };
  }
}
