// EventBus: a bounded history of machine events that watchers read from any point still kept, then follow.
import { EventsError } from './errors.js';
import type { MachineEvent, MachineEventPayload } from './event.js';
import { newXidSource, type XidSource } from './xid.js';

export interface EventBusOptions {
  /** events kept for tails and slow watchers; default 1000, as upstream */
  capacity?: number;
  xid?: XidSource;
  now?: () => number;
}

export interface PublishOptions {
  actorId?: string;
}

/** WatchOptions follow machine.EventsRequest: at most one tail selector applies, tailId first. */
export interface WatchOptions {
  signal: AbortSignal;
  /** replay this many past events first; -1 replays all that are kept */
  tailEvents?: number;
  /** replay the events published after the one with this id */
  tailId?: string;
  /** replay the events of the last this-many seconds */
  tailSeconds?: number;
  /** only events caused by this actor */
  actorId?: string;
}

const DEFAULT_CAPACITY = 1000;

export class EventBus {
  readonly #ring: (MachineEvent | undefined)[];
  readonly #capacity: number;
  readonly #xid: XidSource;
  readonly #now: () => number;
  /** absolute count of events ever published; event n lives at ring[n % capacity] */
  #written = 0;
  #wake: (() => void)[] = [];

  constructor(opts: EventBusOptions = {}) {
    this.#capacity = opts.capacity ?? DEFAULT_CAPACITY;
    this.#ring = new Array(this.#capacity);
    this.#xid = opts.xid ?? newXidSource();
    this.#now = opts.now ?? Date.now;
  }

  /** publish stores the event and wakes every watcher; it never blocks on a slow one. */
  publish<P extends MachineEventPayload>(payload: P, opts: PublishOptions = {}): MachineEvent<P> {
    const time = this.#now();
    const ev: MachineEvent<P> = { id: this.#xid.next(time), actorId: opts.actorId ?? '', time, payload };
    this.#ring[this.#written % this.#capacity] = ev;
    this.#written++;
    const wake = this.#wake;
    this.#wake = [];
    for (const w of wake) w();
    return ev;
  }

  /** history is the kept events, oldest first. */
  history(): MachineEvent[] {
    const out: MachineEvent[] = [];
    for (let i = this.#oldest(); i < this.#written; i++) out.push(this.#ring[i % this.#capacity]!);
    return out;
  }

  /**
   * watch yields the selected tail, then every new event until the signal aborts (the loop then ends
   * quietly). A watcher that falls a whole capacity behind gets an `overrun` EventsError.
   */
  async *watch(opts: WatchOptions): AsyncGenerator<MachineEvent> {
    let cursor = this.#start(opts);
    const { signal } = opts;
    while (!signal.aborted) {
      if (cursor < this.#written) {
        if (cursor < this.#oldest())
          throw new EventsError('overrun', `events watcher fell ${this.#written - cursor} events behind`);
        const ev = this.#ring[cursor % this.#capacity]!;
        cursor++;
        if (opts.actorId === undefined || opts.actorId === '' || ev.actorId === opts.actorId) yield ev;
        continue;
      }
      if (!(await this.#next(signal))) return;
    }
  }

  #oldest(): number {
    return Math.max(0, this.#written - this.#capacity);
  }

  #start(opts: WatchOptions): number {
    const oldest = this.#oldest();
    if (opts.tailId) {
      for (let i = oldest; i < this.#written; i++)
        if (this.#ring[i % this.#capacity]!.id === opts.tailId) return i + 1;
      throw new EventsError('invalid-tail', `event ${JSON.stringify(opts.tailId)} is not in the history`);
    }
    if (opts.tailSeconds !== undefined && opts.tailSeconds > 0) {
      const since = this.#now() - opts.tailSeconds * 1000;
      let i = oldest;
      while (i < this.#written && this.#ring[i % this.#capacity]!.time < since) i++;
      return i;
    }
    const n = opts.tailEvents ?? 0;
    if (n < 0) return oldest;
    return Math.max(oldest, this.#written - n);
  }

  /** next resolves true on the next publish, false if the signal aborts first. */
  #next(signal: AbortSignal): Promise<boolean> {
    return new Promise((resolve) => {
      const onAbort = () => {
        this.#wake = this.#wake.filter((w) => w !== wake);
        resolve(false);
      };
      const wake = () => {
        signal.removeEventListener('abort', onAbort);
        resolve(true);
      };
      this.#wake.push(wake);
      signal.addEventListener('abort', onAbort, { once: true });
    });
  }
}
