// Runs State handlers as async functions: one AbortSignal per call, thrown errors become statuses.
import type {
  handleServerStreamingCall,
  handleUnaryCall,
  ServerErrorResponse,
  ServerWritableStream,
} from '@grpc/grpc-js';

/** ToStatus maps whatever a handler threw to the status sent to the client. */
export type ToStatus = (err: unknown) => ServerErrorResponse;

/** Send writes one message and resolves once the transport can take more (or the call ended). */
export type Send<Res> = (msg: Res) => Promise<void>;

// Cancellation (client gone, deadline, server shutdown) aborts the handler's work, e.g. its watch.
const callSignal = (call: {
  once(ev: 'cancelled', fn: () => void): unknown;
  off(ev: 'cancelled', fn: () => void): unknown;
}) => {
  const ac = new AbortController();
  const onCancel = () => ac.abort(new Error('call cancelled'));
  call.once('cancelled', onCancel);
  return { signal: ac.signal, release: () => call.off('cancelled', onCancel) };
};

/** unary adapts `fn(request, signal)` to a unary handler. */
export function unary<Req, Res>(
  fn: (req: Req, signal: AbortSignal) => Promise<Res>,
  toStatus: ToStatus,
): handleUnaryCall<Req, Res> {
  return (call, callback) => {
    const { signal, release } = callSignal(call);
    // Starting from a resolved promise turns synchronous throws into rejections too.
    Promise.resolve()
      .then(() => fn(call.request, signal))
      .then(
        (res) => callback(null, res),
        (err) => callback(toStatus(err)),
      )
      .finally(release);
  };
}

const sender =
  <Res>(call: ServerWritableStream<unknown, Res>, signal: AbortSignal): Send<Res> =>
  (msg) => {
    if (signal.aborted || call.write(msg)) return Promise.resolve();
    // Respect HTTP/2 flow control: a slow client holds the producer back instead of growing a buffer.
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

/** serverStream adapts `fn(request, send, signal)` to a server-streaming handler; returning ends the call. */
export function serverStream<Req, Res>(
  fn: (req: Req, send: Send<Res>, signal: AbortSignal) => Promise<void>,
  toStatus: ToStatus,
): handleServerStreamingCall<Req, Res> {
  return (call) => {
    const { signal, release } = callSignal(call);
    Promise.resolve()
      .then(() => fn(call.request, sender(call, signal), signal))
      .then(
        () => {
          if (!signal.aborted) call.end();
        },
        (err) => {
          // The stream's own error listener turns this into the call's status.
          if (!signal.aborted) call.emit('error', toStatus(err));
        },
      )
      .finally(release);
  };
}
