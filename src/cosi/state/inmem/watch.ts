// Watch streams over a collection's history: one resource, a whole kind, or a kind in batches.
import type { ID } from '../../resource/kind.js';
import type { Resource } from '../../resource/resource.js';
import { Tombstone } from '../../resource/resource.js';
import type { WatchKindOptions, WatchOptions } from '../core.js';
import { errInvalidArgument, errInvalidBookmark } from '../errors.js';
import type { Bookmark, StateEvent, WatchStream } from '../events.js';
import { closeOnAbort, forget } from './abort-group.js';
import { decodeBookmark, encodeBookmark } from './bookmark.js';
import type { Collection, Waiter } from './collection.js';
import type { ChangeEvent, History } from './history.js';
import { matcher } from './match.js';

type Match = ((r: Resource) => boolean) | undefined;
type Resolve<E> = (r: IteratorResult<E>) => void;

const DONE: IteratorResult<never> = Object.freeze({ value: undefined, done: true });
const DONE_PROMISE: Promise<IteratorResult<never>> = Promise.resolve(DONE);

/**
 * Watcher is one established watch. It holds a read position into the history and, while its
 * consumer waits, sits parked in the collection, which wakes it after writes. Events are handed
 * out as the shared immutable snapshots the history holds.
 */
abstract class Watcher<E> implements WatchStream<E>, AsyncIterator<E>, Waiter {
  protected pos: number;
  #head: (E | undefined)[];
  #headAt = 0;
  readonly #pending: Resolve<E>[] = [];
  #done = false;
  readonly #signal: AbortSignal | undefined;

  constructor(
    protected readonly c: Collection,
    pos: number,
    head: E[],
    signal: AbortSignal | undefined,
  ) {
    this.pos = pos;
    this.#head = head;
    this.#signal = signal;
    if (signal) closeOnAbort(signal, this);
  }

  /** pull reads the next deliverable item from the history, if any. */
  protected abstract pull(): E | undefined;

  [Symbol.asyncIterator](): AsyncIterator<E> {
    return this;
  }

  next(): Promise<IteratorResult<E>> {
    if (this.#done) return DONE_PROMISE;
    if (this.#pending.length === 0) {
      const v = this.#take();
      if (v !== undefined) return Promise.resolve({ value: v, done: false });
      if (this.#done) return DONE_PROMISE;
    }
    return new Promise<IteratorResult<E>>((resolve) => {
      this.#pending.push(resolve);
      this.c.park(this);
    });
  }

  return(): Promise<IteratorResult<E>> {
    this.close();
    return DONE_PROMISE;
  }

  close(): void {
    if (this.#done) return;
    this.#done = true;
    this.#release();
    for (const resolve of this.#pending.splice(0)) resolve(DONE);
  }

  wake(): boolean {
    const pending = this.#pending;
    while (pending.length > 0) {
      const v = this.#take();
      if (v === undefined) break;
      pending.shift()!({ value: v, done: false });
    }
    if (this.#done) for (const resolve of pending.splice(0)) resolve(DONE);
    return pending.length === 0;
  }

  /** overrun ends the stream after one errored event: the history no longer holds what it missed. */
  protected overrun(): Extract<StateEvent, { type: 'errored' }> {
    const h = this.c.history;
    const error = new Error(
      `buffer overrun: namespace ${JSON.stringify(this.c.namespace)} type ${JSON.stringify(this.c.type)}, ` +
        `write pos ${h.writePos}, pos ${this.pos}, capacity ${h.capacity}`,
    );
    this.#done = true;
    this.#release();
    return { type: 'errored', error };
  }

  #take(): E | undefined {
    if (this.#done) return undefined;
    const head = this.#head;
    if (this.#headAt < head.length) {
      const v = head[this.#headAt]!;
      head[this.#headAt++] = undefined; // let bootstrap snapshots go as they are consumed
      if (this.#headAt === head.length) {
        this.#head = [];
        this.#headAt = 0;
      }
      return v;
    }
    return this.pull();
  }

  #release(): void {
    this.c.unpark(this);
    if (this.#signal) forget(this.#signal, this);
    this.#head = [];
    this.#headAt = 0;
  }
}

class ResourceWatcher extends Watcher<StateEvent> {
  constructor(
    c: Collection,
    readonly id: ID,
    pos: number,
    head: StateEvent[],
    signal: AbortSignal | undefined,
  ) {
    super(c, pos, head, signal);
  }

  protected pull(): StateEvent | undefined {
    const h = this.c.history;
    if (this.pos < h.writePos && h.overrun(this.pos)) return this.overrun();
    while (this.pos < h.writePos) {
      const ev = h.at(this.pos++);
      if (ev.resource.metadata.id === this.id) return ev;
    }
    return undefined;
  }
}

class KindWatcher extends Watcher<StateEvent> {
  constructor(
    c: Collection,
    readonly match: Match,
    pos: number,
    head: StateEvent[],
    signal: AbortSignal | undefined,
  ) {
    super(c, pos, head, signal);
  }

  protected pull(): StateEvent | undefined {
    const h = this.c.history;
    if (this.pos < h.writePos && h.overrun(this.pos)) return this.overrun();
    while (this.pos < h.writePos) {
      const ev = filterEvent(h.at(this.pos++), this.match);
      if (ev) return ev;
    }
    return undefined;
  }
}

class AggregatedWatcher extends Watcher<StateEvent[]> {
  constructor(
    c: Collection,
    readonly match: Match,
    pos: number,
    head: StateEvent[][],
    signal: AbortSignal | undefined,
  ) {
    super(c, pos, head, signal);
  }

  protected pull(): StateEvent[] | undefined {
    const h = this.c.history;
    if (this.pos >= h.writePos) return undefined;
    if (h.overrun(this.pos)) return [this.overrun()];
    const batch: StateEvent[] = [];
    while (this.pos < h.writePos) {
      const ev = filterEvent(h.at(this.pos++), this.match);
      if (ev) batch.push(ev);
    }
    return batch.length > 0 ? batch : undefined;
  }
}

/**
 * filterEvent applies label/ID filters: an update that leaves the filter becomes destroyed, one
 * that enters it becomes created, and one that is outside before and after is dropped.
 */
export function filterEvent(ev: ChangeEvent, match: Match): StateEvent | undefined {
  if (!match) return ev;
  if (ev.type !== 'updated') return match(ev.resource) ? ev : undefined;
  const was = match(ev.old);
  const is = match(ev.resource);
  if (was && is) return ev;
  if (is) return { type: 'created', resource: ev.resource, bookmark: ev.bookmark };
  if (was) return { type: 'destroyed', resource: ev.resource, bookmark: ev.bookmark };
  return undefined;
}

/** resumeAfter validates a bookmark against the safe part of the history and returns the next position. */
function resumeAfter(h: History, b: Bookmark, floor: number): number {
  const pos = decodeBookmark(b);
  if (pos === undefined || pos < h.writePos - h.capacity + h.gap || pos < floor || pos >= h.writePos)
    throw errInvalidBookmark();
  return pos + 1;
}

const ERR_TAIL_AND_BOOKMARK = 'cannot use both TailEvents and StartFromBookmark options';
const ERR_BOOTSTRAP = 'cannot use BootstrapContents with TailEvents and StartFromBookmark options';

/** watchResource opens a single-resource watch; by default its first event is the current state. */
export function watchResource(c: Collection, id: ID, opts: WatchOptions = {}): WatchStream<StateEvent> {
  const tail = opts.tailEvents ?? 0;
  const bookmark = opts.startFromBookmark;
  if (tail > 0 && bookmark) throw errInvalidArgument(ERR_TAIL_AND_BOOKMARK);
  const h = c.history;
  let pos = h.writePos;
  let head: StateEvent[] = [];
  if (tail > 0) {
    const min = h.safeStart();
    for (let found = 0; pos > min && found < tail; pos--)
      if (h.at(pos - 1).resource.metadata.id === id) found++;
  } else if (bookmark) {
    pos = resumeAfter(h, bookmark, 0);
  } else {
    const cur = c.peek(id);
    head = [
      cur
        ? { type: 'created', resource: cur }
        : { type: 'destroyed', resource: Tombstone.of({ namespace: c.namespace, type: c.type, id }) },
    ];
  }
  return new ResourceWatcher(c, id, pos, head, opts.signal);
}

interface KindStart {
  pos: number;
  match: Match;
  /** bootstrap contents (created…, bootstrapped), then the bootstrap bookmark (noop) */
  contents: StateEvent[] | undefined;
  noop: StateEvent | undefined;
}

function kindStart(c: Collection, opts: WatchKindOptions): KindStart {
  const tail = opts.tailEvents ?? 0;
  const bookmark = opts.startFromBookmark;
  if (opts.bootstrapContents && (tail > 0 || bookmark)) throw errInvalidArgument(ERR_BOOTSTRAP);
  if (tail > 0 && bookmark) throw errInvalidArgument(ERR_TAIL_AND_BOOKMARK);
  const h = c.history;
  const match = matcher(opts);
  let pos = h.writePos;
  if (tail > 0) pos = Math.max(0, pos - Math.min(tail, h.capacity - h.gap));
  else if (bookmark) pos = resumeAfter(h, bookmark, -1);
  const kindTombstone = (): Tombstone => Tombstone.of({ namespace: c.namespace, type: c.type, id: '' });
  let contents: StateEvent[] | undefined;
  if (opts.bootstrapContents) {
    contents = c.snapshots(match).map((resource): StateEvent => ({ type: 'created', resource }));
    contents.push({ type: 'bootstrapped', resource: kindTombstone(), bookmark: encodeBookmark(pos - 1) });
  }
  const noop: StateEvent | undefined = opts.bootstrapBookmark
    ? { type: 'noop', resource: kindTombstone(), bookmark: encodeBookmark(pos - 1) }
    : undefined;
  return { pos, match, contents, noop };
}

/** watchKind opens a kind watch: no initial events unless bootstrap contents or bookmark are asked for. */
export function watchKind(c: Collection, opts: WatchKindOptions = {}): WatchStream<StateEvent> {
  const { pos, match, contents, noop } = kindStart(c, opts);
  const head = contents ?? [];
  if (noop) head.push(noop);
  return new KindWatcher(c, match, pos, head, opts.signal);
}

/** watchKindAggregated is watchKind delivering everything pending at each wake-up as one batch. */
export function watchKindAggregated(c: Collection, opts: WatchKindOptions = {}): WatchStream<StateEvent[]> {
  const { pos, match, contents, noop } = kindStart(c, opts);
  const head: StateEvent[][] = [];
  if (contents) head.push(contents);
  if (noop) head.push([noop]);
  return new AggregatedWatcher(c, match, pos, head, opts.signal);
}
