// A maintenance API's first answer is almost always Version's (talosctl and every tool that waits for a
// node ask it first). Under TCG that answer spent 0.1–0.2 s building the call's protobuf types and
// codecs, which a node builds once, on first use. warmUp does that work as soon as the API listens,
// while whoever waits for the node notices it and connects: work the first answer would do anyway,
// moved into time the node otherwise spends waiting for its first client.
import { Metadata, type MethodDefinition } from '@grpc/grpc-js';
import { type CallContext, decodeRequest, encodeReply, type Handler } from './handlers.js';

/** nobody's call: no roles, no subject (the handlers warmed here answer anyone) */
const NOBODY = { roles: new Set<string>(), subject: '', impersonated: false };

/**
 * warmUp decodes an empty request of `method`, runs its unary `handler` and encodes the reply, as the
 * first call will. The reply goes nowhere; a failure is the first call's to report.
 */
export async function warmUp(
  def: MethodDefinition<object, object>,
  method: string,
  handler: Handler,
): Promise<void> {
  if (handler.kind !== 'unary') return;
  const ctx: CallContext = {
    method,
    caller: NOBODY,
    metadata: new Metadata(),
    signal: new AbortController().signal,
  };
  try {
    encodeReply(def, method, await handler.fn(decodeRequest(def, method, Buffer.alloc(0)), ctx));
  } catch {
    // the call itself fails the same way, with the error its client should see
  }
}
