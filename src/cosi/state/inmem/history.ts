// History: the per-(namespace, type) ring of change events that watches read and bookmarks point into.
import type { Resource } from '../../resource/resource.js';
import type { StateEvent } from '../events.js';
import { encodeBookmark } from './bookmark.js';

/**
 * ChangeEvent is what the ring holds. Events are immutable snapshots shared by every watcher
 * (and by the stored resource itself): consumers must deepCopy a resource before editing it.
 */
export type ChangeEvent = Extract<StateEvent, { type: 'created' | 'updated' | 'destroyed' }>;

/**
 * History is a ring indexed by a monotonically increasing write position (slot = pos % capacity).
 * It may grow only during its first wrap, while every written position is still below the old
 * capacity, so `pos % capacity` keeps pointing at the same slots; after that its size is fixed.
 */
export class History {
  #ring: (ChangeEvent | undefined)[];
  #capacity: number;
  readonly #maxCapacity: number;
  /** the oldest `gap` slots are about to be overwritten, so tails and bookmarks avoid them */
  readonly gap: number;
  /** position the next event gets */
  writePos = 0;

  constructor(initialCapacity: number, maxCapacity: number, gap: number) {
    this.#capacity = initialCapacity;
    this.#maxCapacity = maxCapacity;
    this.gap = gap;
    this.#ring = new Array(initialCapacity);
  }

  get capacity(): number {
    return this.#capacity;
  }

  append(type: 'created' | 'destroyed', resource: Resource): ChangeEvent;
  append(type: 'updated', resource: Resource, old: Resource): ChangeEvent;
  append(type: ChangeEvent['type'], resource: Resource, old?: Resource): ChangeEvent {
    if (this.writePos === this.#capacity && this.#capacity < this.#maxCapacity) {
      this.#capacity = Math.min(this.#capacity * 2, this.#maxCapacity);
      this.#ring.length = this.#capacity;
    }
    const bookmark = encodeBookmark(this.writePos);
    const ev: ChangeEvent =
      type === 'updated' ? { type, resource, old: old!, bookmark } : { type, resource, bookmark };
    this.#ring[this.writePos % this.#capacity] = ev;
    this.writePos++;
    return ev;
  }

  /** at reads a position the caller has checked to be within the last `capacity` writes. */
  at(pos: number): ChangeEvent {
    return this.#ring[pos % this.#capacity]!;
  }

  /** safeStart is the oldest position a tail or bookmark may resume from. */
  safeStart(): number {
    return Math.max(0, this.writePos - this.#capacity + this.gap);
  }

  /** overrun tells whether a reader at `pos` has lost events to the writer. */
  overrun(pos: number): boolean {
    return this.writePos - pos > this.#capacity;
  }
}
