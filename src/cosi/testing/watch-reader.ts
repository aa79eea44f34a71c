// Test helper: read a watch one event at a time, flattening aggregated batches, without timers.
import type { StateEvent, WatchStream } from '../state/events.js';

export interface EventReader {
  /** next resolves with the next event; it rejects if the watch ends first */
  next(): Promise<StateEvent>;
  /** take reads exactly n events */
  take(n: number): Promise<StateEvent[]>;
  close(): void;
}

/** eventReader wraps a plain or aggregated watch; a hung wait ends when the watch's signal aborts. */
export function eventReader(stream: WatchStream<StateEvent> | WatchStream<StateEvent[]>): EventReader {
  const it = (stream as AsyncIterable<StateEvent | StateEvent[]>)[Symbol.asyncIterator]();
  let buffered: StateEvent[] = [];
  const next = async (): Promise<StateEvent> => {
    while (buffered.length === 0) {
      const r = await it.next();
      if (r.done) throw new Error('watch ended before the expected event');
      buffered = Array.isArray(r.value) ? [...r.value] : [r.value];
    }
    return buffered.shift()!;
  };
  return {
    next,
    async take(n) {
      const out: StateEvent[] = [];
      while (out.length < n) out.push(await next());
      return out;
    },
    close: () => stream.close(),
  };
}
