// Handler shapes for the API's RPCs, and running one here: decode the request with the method's codec, call
// the handler, encode its reply. A method with no handler answers UNIMPLEMENTED, never a made-up reply.
import type { Metadata, MethodDefinition } from '@grpc/grpc-js';
import type { Caller } from './auth/roles.js';
import { ApiError } from './errors.js';
import type { LocalCall, Sink, StreamedLocal } from './routing/router.js';

/** ApiMessage is a decoded message: snake_case keys, 64-bit numbers as strings, enums by name. */
export type ApiMessage = Record<string, unknown>;

/** CallContext is what a handler knows about its call. */
export interface CallContext {
  /** full method path, e.g. `/machine.MachineService/Version` */
  readonly method: string;
  readonly caller: Caller;
  readonly metadata: Metadata;
  /** aborted when the client goes away, the deadline passes or the server shuts down */
  readonly signal: AbortSignal;
}

export type Send = (msg: ApiMessage) => Promise<void>;

export type Handler =
  | { readonly kind: 'unary'; readonly fn: (req: ApiMessage, ctx: CallContext) => Promise<ApiMessage> }
  | {
      readonly kind: 'server-stream';
      readonly fn: (req: ApiMessage, send: Send, ctx: CallContext) => Promise<void>;
    }
  | {
      readonly kind: 'client-stream';
      readonly fn: (reqs: AsyncIterable<ApiMessage>, ctx: CallContext) => Promise<ApiMessage>;
    }
  | {
      readonly kind: 'bidi-stream';
      readonly fn: (reqs: AsyncIterable<ApiMessage>, send: Send, ctx: CallContext) => Promise<void>;
    };

/** HandlerMap: full method path → handler. Envelope services' unary handlers return `{ messages: [one] }`. */
export type HandlerMap = Readonly<Partial<Record<string, Handler>>>;

export const unaryHandler = (fn: Extract<Handler, { kind: 'unary' }>['fn']): Handler => ({
  kind: 'unary',
  fn,
});
export const serverStreamHandler = (fn: Extract<Handler, { kind: 'server-stream' }>['fn']): Handler => ({
  kind: 'server-stream',
  fn,
});
export const clientStreamHandler = (fn: Extract<Handler, { kind: 'client-stream' }>['fn']): Handler => ({
  kind: 'client-stream',
  fn,
});
export const bidiStreamHandler = (fn: Extract<Handler, { kind: 'bidi-stream' }>['fn']): Handler => ({
  kind: 'bidi-stream',
  fn,
});

/** handlerKind is the handler shape a method definition needs. */
export function handlerKind(def: MethodDefinition<object, object>): Handler['kind'] {
  if (def.requestStream) return def.responseStream ? 'bidi-stream' : 'client-stream';
  return def.responseStream ? 'server-stream' : 'unary';
}

/** notImplemented is the answer of every RPC whose subsystem Keel does not have yet. */
export const notImplemented = (method: string): ApiError =>
  new ApiError(
    'unimplemented',
    `${method} is not implemented: the subsystem behind it does not exist in Keel yet`,
  );

/** decodeRequest turns bytes into a message or an INVALID_ARGUMENT naming the method. */
export function decodeRequest(
  def: MethodDefinition<object, object>,
  method: string,
  bytes: Buffer,
): ApiMessage {
  try {
    return def.requestDeserialize(bytes) as ApiMessage;
  } catch (cause) {
    const why = cause instanceof Error ? cause.message : String(cause);
    throw new ApiError('invalid-argument', `${method}: malformed request: ${why}`, { cause });
  }
}

/** encodeReply serializes a handler's reply; a reply that does not fit the schema is the handler's bug. */
export function encodeReply(def: MethodDefinition<object, object>, method: string, msg: ApiMessage): Buffer {
  try {
    return def.responseSerialize(msg);
  } catch (cause) {
    const why = cause instanceof Error ? cause.message : String(cause);
    throw new ApiError('internal', `${method}: handler reply does not fit the schema: ${why}`, { cause });
  }
}

/** localCall runs `handler` for `def` on this node, bytes in and bytes out, as the router wants. */
export function localCall(
  def: MethodDefinition<object, object>,
  handler: Handler | undefined,
  ctx: CallContext,
): LocalCall {
  const { method } = ctx;
  return {
    async unary(request) {
      if (handler?.kind !== 'unary') throw notImplemented(method);
      const reply = await handler.fn(decodeRequest(def, method, request), ctx);
      return encodeReply(def, method, reply);
    },
    async serverStream(request, sink: Sink) {
      if (handler?.kind !== 'server-stream') throw notImplemented(method);
      await handler.fn(
        decodeRequest(def, method, request),
        (msg) => sink(encodeReply(def, method, msg)),
        ctx,
      );
    },
  };
}

/** decodeEach decodes a request stream lazily, failing on the first malformed chunk. */
async function* decodeEach(
  def: MethodDefinition<object, object>,
  method: string,
  chunks: AsyncIterable<Buffer>,
): AsyncGenerator<ApiMessage> {
  for await (const chunk of chunks) yield decodeRequest(def, method, chunk);
}

/** streamedLocalCall is localCall for methods whose requests are a stream. */
export function streamedLocalCall(
  def: MethodDefinition<object, object>,
  handler: Handler | undefined,
  ctx: CallContext,
): StreamedLocal {
  const { method } = ctx;
  return {
    async clientStream(requests) {
      if (handler?.kind !== 'client-stream') throw notImplemented(method);
      return encodeReply(def, method, await handler.fn(decodeEach(def, method, requests), ctx));
    },
    async bidiStream(requests, sink) {
      if (handler?.kind !== 'bidi-stream') throw notImplemented(method);
      await handler.fn(decodeEach(def, method, requests), (msg) => sink(encodeReply(def, method, msg)), ctx);
    },
  };
}
