// Promise-shaped State calls over any grpc-js Client, cancelled by AbortSignals.
import { type Client, type ClientReadableStream, Metadata, type MethodDefinition } from '@grpc/grpc-js';

/** CallContext is what every call needs: the client and the signal that closes them all. */
export interface CallContext {
  readonly client: Client;
  /** aborted when the owning state closes */
  readonly closed: AbortSignal;
}

/** onAbort runs `fn` once when any signal aborts (now, if one already has); the result removes the listeners. */
export function onAbort(signals: readonly (AbortSignal | undefined)[], fn: () => void): () => void {
  const live = signals.filter((s): s is AbortSignal => s !== undefined);
  let fired = false;
  const fire = () => {
    if (fired) return;
    fired = true;
    dispose();
    fn();
  };
  const dispose = () => {
    for (const s of live) s.removeEventListener('abort', fire);
  };
  if (live.some((s) => s.aborted)) {
    fire();
    return () => {};
  }
  for (const s of live) s.addEventListener('abort', fire, { once: true });
  return dispose;
}

/** abortReason is the reason of the first aborted signal, if any. */
export const abortReason = (signals: readonly (AbortSignal | undefined)[]): unknown =>
  signals.find((s) => s?.aborted)?.reason;

const isAborted = (signals: readonly (AbortSignal | undefined)[]) => signals.some((s) => s?.aborted);

/**
 * unaryCall sends one request. It rejects with the raw ServiceError on a failed status, or with
 * the abort reason when a signal cancelled the call.
 */
export function unaryCall<Req, Res>(
  ctx: CallContext,
  method: MethodDefinition<Req, Res>,
  req: Req,
  signal?: AbortSignal,
): Promise<Res> {
  const signals = [ctx.closed, signal];
  return new Promise<Res>((resolve, reject) => {
    if (isAborted(signals)) {
      reject(abortReason(signals));
      return;
    }
    let dispose = () => {};
    const call = ctx.client.makeUnaryRequest<Req, Res>(
      method.path,
      method.requestSerialize,
      method.responseDeserialize,
      req,
      new Metadata(),
      {},
      (err, res) => {
        dispose();
        if (isAborted(signals)) reject(abortReason(signals));
        else if (err) reject(err);
        else resolve(res as Res);
      },
    );
    dispose = onAbort(signals, () => call.cancel());
  });
}

/** openStream starts a server-streaming call; the caller owns cancelling it. */
export function openStream<Req, Res>(
  ctx: CallContext,
  method: MethodDefinition<Req, Res>,
  req: Req,
): ClientReadableStream<Res> {
  const call = ctx.client.makeServerStreamRequest<Req, Res>(
    method.path,
    method.requestSerialize,
    method.responseDeserialize,
    req,
    new Metadata(),
    {},
  );
  // A cancelled or abandoned call still reports its status as an 'error' event; never let that go unhandled.
  call.on('error', () => {});
  return call;
}

/** collectStream reads a server stream to its end (List). */
export async function collectStream<Req, Res>(
  ctx: CallContext,
  method: MethodDefinition<Req, Res>,
  req: Req,
  signal?: AbortSignal,
): Promise<Res[]> {
  const signals = [ctx.closed, signal];
  if (isAborted(signals)) throw abortReason(signals);
  const call = openStream(ctx, method, req);
  const dispose = onAbort(signals, () => call.cancel());
  try {
    const out: Res[] = [];
    for await (const msg of call) out.push(msg as Res);
    return out;
  } catch (err) {
    throw isAborted(signals) ? abortReason(signals) : err;
  } finally {
    dispose();
  }
}
