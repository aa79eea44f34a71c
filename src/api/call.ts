// The life of one server call: a signal for its end (client gone, deadline, server closing), writes that
// respect flow control, and ending a stream the right way for each of those endings.
import type {
  ServerDuplexStream,
  ServerReadableStream,
  ServerUnaryCall,
  ServerWritableStream,
} from '@grpc/grpc-js';
import { ApiError, toServerError } from './errors.js';

export type AnyCall =
  | ServerUnaryCall<unknown, unknown>
  | ServerWritableStream<unknown, unknown>
  | ServerReadableStream<unknown, unknown>
  | ServerDuplexStream<unknown, unknown>;

export interface CallScope {
  /** aborted when the client cancels, the deadline passes or the server closes */
  readonly signal: AbortSignal;
  /** true when the client went away: nothing can be sent any more */
  cancelled(): boolean;
  release(): void;
}

type CancelEvents = {
  once(ev: 'cancelled', fn: () => void): unknown;
  off(ev: 'cancelled', fn: () => void): unknown;
};

/** callScope ties a call to the client's cancellation and the server's closing signal. */
export function callScope(call: AnyCall, closing: AbortSignal): CallScope {
  const ac = new AbortController();
  const onCancel = () => ac.abort(new ApiError('unavailable', 'call cancelled by the client'));
  const events = call as unknown as CancelEvents;
  events.once('cancelled', onCancel);
  return {
    signal: AbortSignal.any([ac.signal, closing]),
    cancelled: () => ac.signal.aborted,
    release: () => events.off('cancelled', onCancel),
  };
}

type Writable<T> = ServerWritableStream<unknown, T> | ServerDuplexStream<unknown, T>;

/** writer sends one message, waiting for the transport when its buffer is full. */
export function writer<T>(call: Writable<T>, signal: AbortSignal): (msg: T) => Promise<void> {
  return (msg) => {
    if (signal.aborted || call.write(msg)) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const done = () => {
        call.off('drain', done);
        signal.removeEventListener('abort', done);
        resolve();
      };
      call.once('drain', done);
      signal.addEventListener('abort', done, { once: true });
    });
  };
}

/**
 * endStream finishes a response stream: nothing when the client already left, UNAVAILABLE when the server
 * is closing under it, the error's status when the work failed, OK otherwise.
 */
export function endStream(call: Writable<unknown>, scope: CallScope, method: string, err?: unknown): void {
  if (scope.cancelled()) return;
  if (scope.signal.aborted)
    call.emit(
      'error',
      toServerError(new ApiError('unavailable', `${method}: api server shutting down`), method),
    );
  else if (err !== undefined) call.emit('error', toServerError(err, method));
  else call.end();
}
