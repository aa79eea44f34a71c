// The one-to-many reply envelope seen from the client: each message's metadata names its node or its error.
import { type ClientError, envelopeError } from './errors.js';

export interface NodeMetadata {
  readonly hostname?: string;
  readonly error?: string;
  readonly status?: { readonly code?: number; readonly message?: string };
}

export type EnvelopeMessage = Record<string, unknown> & { readonly metadata?: NodeMetadata };

/** NodeReply is one node's message, or that node's failure. */
export type NodeReply<M> =
  | { readonly ok: true; readonly node: string; readonly message: M }
  | { readonly ok: false; readonly node: string; readonly error: ClientError };

/**
 * nodeReply reads one message's metadata: an error there is that node's failure (the call itself succeeded).
 * Without a hostname the message is from the node we talk to directly, named `fallback`.
 */
export function nodeReply<M extends EnvelopeMessage>(m: M, fallback: string): NodeReply<M> {
  const node = m.metadata?.hostname || fallback;
  const err = m.metadata?.error;
  if (err) return { ok: false, node, error: envelopeError(node, err, m.metadata?.status?.code) };
  return { ok: true, node, message: m };
}

/** splitReplies turns a unary reply's `messages` into per-node replies. */
export const splitReplies = <M extends EnvelopeMessage>(
  reply: { readonly messages?: readonly M[] },
  fallback: string,
): NodeReply<M>[] => (reply.messages ?? []).map((m) => nodeReply(m, fallback));
