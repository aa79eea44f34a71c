// A remote watch: established once the empty first message arrives, resumed from its last bookmark after stream errors.
import { setTimeout as sleep } from 'node:timers/promises';
import { type ClientReadableStream, type MethodDefinition, status } from '@grpc/grpc-js';
import type { Bookmark, StateEvent, WatchStream } from '../state/events.js';
import { type BackoffOptions, ExponentialBackoff } from './backoff.js';
import { type CallContext, onAbort, openStream } from './client-calls.js';
import { type DecodeContext, fromWireEvent } from './event-codec.js';
import { fromStatusError, isServiceError } from './status.js';
import type { WatchRequest, WatchResponse } from './wire.js';

export interface WatchRetryInfo {
  readonly namespace: string;
  readonly type: string;
  /** why the stream broke */
  readonly error: Error;
  readonly delayMs: number;
  readonly bookmark: Bookmark;
}

export interface RemoteWatchOptions extends DecodeContext {
  readonly ctx: CallContext;
  readonly method: MethodDefinition<WatchRequest, WatchResponse>;
  readonly request: WatchRequest;
  readonly signal?: AbortSignal;
  /** false: the first stream error ends the watch */
  readonly retry: false | BackoffOptions;
  readonly onRetry?: (info: WatchRetryInfo) => void;
}

/** The server closed the stream with OK; a watch never ends on its own, so this is a break to recover from. */
class StreamEnded extends Error {
  constructor() {
    super('watch stream ended by the server');
    this.name = 'StreamEnded';
  }
}

interface Attempt {
  readonly call: ClientReadableStream<WatchResponse>;
  readonly it: AsyncIterator<WatchResponse>;
}

type Recovery = { readonly msg: WatchResponse } | { readonly failed: Error } | { readonly stopped: true };

/**
 * RemoteWatch is a watch over one or more successive Watch calls. It yields one batch per
 * message; the batch that carries an `errored` event is the last.
 */
class RemoteWatch implements WatchStream<StateEvent[]> {
  readonly #o: RemoteWatchOptions;
  /** aborted by close(), the caller's signal or the state closing: stops everything */
  readonly #stop = new AbortController();
  readonly #release: () => void;
  #attempt: Attempt | undefined;
  #lastBookmark: Bookmark | undefined;
  #backoff: ExponentialBackoff | undefined;
  #iterated = false;

  constructor(o: RemoteWatchOptions) {
    this.#o = o;
    const unlink = onAbort([o.ctx.closed, o.signal], () => this.#stop.abort());
    const cancel = () => this.#attempt?.call.cancel();
    this.#stop.signal.addEventListener('abort', cancel, { once: true });
    this.#release = () => {
      unlink();
      this.#stop.signal.removeEventListener('abort', cancel);
    };
  }

  get #stopped(): boolean {
    return this.#stop.signal.aborted;
  }

  /** establish opens one call and waits for the server's empty "watch is set up" message. */
  async #establish(request: WatchRequest): Promise<void> {
    this.#dropAttempt();
    const call = openStream(this.#o.ctx, this.#o.method, request);
    const it = call[Symbol.asyncIterator]() as AsyncIterator<WatchResponse>;
    this.#attempt = { call, it };
    if (this.#stopped) call.cancel();
    const first = await it.next();
    if (first.done) throw new StreamEnded();
  }

  async open(): Promise<void> {
    try {
      await this.#establish(this.#o.request);
    } catch (err) {
      const stopped = this.#stopped;
      this.#finish();
      throw stopped ? (this.#o.signal?.reason ?? this.#o.ctx.closed.reason ?? err) : this.#mapError(err);
    }
  }

  close(): void {
    // Also releases the signal listeners, for streams closed without ever being iterated.
    this.#finish();
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<StateEvent[]> {
    if (this.#iterated) throw new TypeError('a watch stream can be iterated only once');
    this.#iterated = true;
    try {
      yield* this.#run();
    } finally {
      this.#finish();
    }
  }

  async *#run(): AsyncGenerator<StateEvent[]> {
    while (!this.#stopped && this.#attempt) {
      let msg: WatchResponse;
      try {
        const r = await this.#attempt.it.next();
        if (r.done) throw new StreamEnded();
        msg = r.value;
      } catch (err) {
        if (this.#stopped) return;
        const rec = await this.#recover(err);
        if ('stopped' in rec) return;
        if ('failed' in rec) {
          yield [{ type: 'errored', error: rec.failed }];
          return;
        }
        msg = rec.msg;
      }
      let events: StateEvent[];
      try {
        events = this.#decode(msg);
      } catch (err) {
        yield [{ type: 'errored', error: err instanceof Error ? err : new Error(String(err)) }];
        return;
      }
      if (events.length === 0) continue;
      yield events;
      if (events.some((e) => e.type === 'errored')) return;
    }
  }

  #decode(msg: WatchResponse): StateEvent[] {
    const out: StateEvent[] = [];
    for (const w of msg.event ?? []) {
      // Track the last bookmark even when an event has none: resuming must never skip past it.
      this.#lastBookmark = w.bookmark ? new Uint8Array(w.bookmark) : undefined;
      const ev = fromWireEvent(w, this.#o);
      if (ev) out.push(ev);
    }
    return out;
  }

  /**
   * recover reconnects after a stream error: from the last bookmark, with backoff, until a
   * message arrives. Without a bookmark there is nothing to resume from, and an invalid one
   * (FAILED_PRECONDITION) will not become valid: both end the watch with the error.
   */
  async #recover(cause: unknown): Promise<Recovery> {
    let err = cause;
    const { retry, request } = this.#o;
    for (;;) {
      const bookmark = this.#lastBookmark;
      if (retry === false || !bookmark || (isServiceError(err) && err.code === status.FAILED_PRECONDITION))
        return { failed: this.#mapError(err) };
      this.#backoff ??= new ExponentialBackoff(retry);
      const delayMs = this.#backoff.next();
      if (delayMs === undefined)
        return { failed: new Error('watch retries exhausted', { cause: this.#mapError(err) }) };
      try {
        this.#o.onRetry?.({
          namespace: request.namespace ?? '',
          type: request.type ?? '',
          error: this.#mapError(err),
          delayMs,
          bookmark,
        });
      } catch {
        // a failing observer must not end the watch it observes
      }
      try {
        await sleep(delayMs, undefined, { signal: this.#stop.signal });
        // Resume right after the last event seen; anything that asked for history is already delivered.
        await this.#establish({
          ...request,
          options: {
            ...request.options,
            bootstrap_contents: false,
            bootstrap_bookmark: false,
            tail_events: 0,
            start_from_bookmark: bookmark,
          },
        });
        const r = await this.#attempt!.it.next();
        if (r.done) throw new StreamEnded();
        this.#backoff.reset();
        return { msg: r.value };
      } catch (e) {
        if (this.#stopped) return { stopped: true };
        err = e;
      }
    }
  }

  #mapError(err: unknown): Error {
    if (isServiceError(err)) return fromStatusError(err, 'Watch', this.#o.ref);
    return err instanceof Error ? err : new Error(String(err));
  }

  #dropAttempt(): void {
    const a = this.#attempt;
    this.#attempt = undefined;
    if (!a) return;
    a.call.cancel();
    void a.it.return?.().catch(() => {});
  }

  #finish(): void {
    this.#stop.abort();
    this.#release();
    this.#dropAttempt();
  }
}

/** openRemoteWatch resolves once the server has established the watch. */
export async function openRemoteWatch(o: RemoteWatchOptions): Promise<WatchStream<StateEvent[]>> {
  const w = new RemoteWatch(o);
  await w.open();
  return w;
}

/** flatten turns a batch stream into an event stream (Watch and WatchKind deliver single events). */
export const flatten = (batches: WatchStream<StateEvent[]>): WatchStream<StateEvent> => ({
  close: () => batches.close(),
  async *[Symbol.asyncIterator]() {
    for await (const batch of batches) yield* batch;
  },
});
