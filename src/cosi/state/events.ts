// Watch events: a discriminated union on `type`, each carrying a resumable bookmark where the backend has one.
import type { Resource } from '../resource/resource.js';

export type EventType = 'created' | 'updated' | 'destroyed' | 'bootstrapped' | 'errored' | 'noop';

/** Bookmark is an opaque resume point: boot cookie ‖ position for the in-memory state. */
export type Bookmark = Uint8Array;

export type StateEvent =
  | { readonly type: 'created'; readonly resource: Resource; readonly bookmark?: Bookmark }
  | {
      readonly type: 'updated';
      readonly resource: Resource;
      readonly old: Resource;
      readonly bookmark?: Bookmark;
    }
  /** resource is the last state (or a tombstone when the watched resource never existed) */
  | { readonly type: 'destroyed'; readonly resource: Resource; readonly bookmark?: Bookmark }
  /** end of bootstrap contents; resource is a tombstone of the kind with an empty id */
  | { readonly type: 'bootstrapped'; readonly resource: Resource; readonly bookmark?: Bookmark }
  /** the watch failed (overrun, transport); it ends after this event */
  | { readonly type: 'errored'; readonly error: Error; readonly bookmark?: Bookmark }
  /** carries a bookmark and nothing else */
  | { readonly type: 'noop'; readonly resource?: Resource; readonly bookmark?: Bookmark };

/** Wire numbers of the event types, as cosi.resource.EventType. */
export const EVENT_TYPE_NUMBERS: Readonly<Record<EventType, number>> = {
  created: 0,
  updated: 1,
  destroyed: 2,
  bootstrapped: 3,
  errored: 4,
  noop: 5,
};

/**
 * WatchStream is an established watch. Iterating yields events in order; the iteration ends
 * (without throwing) when the watch is closed, its signal aborts, or after an `errored` event.
 */
export interface WatchStream<E> extends AsyncIterable<E> {
  close(): void;
}
