// Calling every target node at once and splitting the reply per node: the successes to print, the failures to report.
import type { EnvelopeMessage } from './envelope.js';
import { nodeReply } from './envelope.js';
import { type ClientError, fromRPC } from './errors.js';
import type { Session } from './session.js';

export interface PerNode<M> {
  readonly replies: readonly { readonly node: string; readonly message: M }[];
  readonly errors: readonly ClientError[];
}

/**
 * unaryEach calls `service/method` once with every target in `nodes`. A failure of the whole call (a direct
 * call in maintenance mode, or an unreachable endpoint) is reported against the node dialled.
 */
export async function unaryEach<M extends EnvelopeMessage>(
  s: Session,
  service: string,
  method: string,
  request: object,
  signal?: AbortSignal,
): Promise<PerNode<M>> {
  let reply: { messages?: M[] };
  try {
    reply = await s.conn.unary(service, method, request, { route: s.fanOut, ...(signal ? { signal } : {}) });
  } catch (e) {
    const node = s.nodes.length === 1 ? s.nodes[0]! : s.direct;
    return { replies: [], errors: [fromRPC(e, node, `${method} failed`)] };
  }
  const replies: { node: string; message: M }[] = [];
  const errors: ClientError[] = [];
  for (const m of reply.messages ?? []) {
    const r = nodeReply(m, s.direct);
    if (r.ok) replies.push({ node: r.node, message: r.message });
    else errors.push(r.error);
  }
  return { replies, errors };
}

/**
 * streamEach yields each streamed message with its node; node failures inside the stream are collected
 * into `errors` (the array is filled as the stream goes), a failure of the whole stream is thrown.
 */
export async function* streamEach<M extends EnvelopeMessage>(
  s: Session,
  service: string,
  method: string,
  request: object,
  errors: ClientError[],
  signal?: AbortSignal,
): AsyncGenerator<{ readonly node: string; readonly message: M }> {
  const node = s.nodes.length === 1 ? s.nodes[0]! : s.direct;
  try {
    for await (const m of s.conn.stream<M>(service, method, request, {
      route: s.fanOut,
      ...(signal ? { signal } : {}),
    })) {
      const r = nodeReply(m, s.direct);
      if (r.ok) yield { node: r.node, message: r.message };
      else errors.push(r.error);
    }
  } catch (e) {
    throw fromRPC(e, node, `${method} failed`);
  }
}
