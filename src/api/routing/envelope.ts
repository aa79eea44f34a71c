// The one-to-many reply envelope: stamping each node's replies with its name, and standing in for a node
// that failed with a message whose metadata carries the error (the overall call still succeeds).
import { status } from '@grpc/grpc-js';
import { ApiError } from '../errors.js';
import { goStatusText } from '../go-status.js';
import { encodeMetadata, lengthDelimited, withHostname, withHostnameEach } from './wire.js';

/** NodeError is one target's failure, kept with the target it belongs to. */
export class NodeError extends Error {
  constructor(
    readonly node: string,
    readonly code: status,
    message: string,
    opts?: ErrorOptions,
  ) {
    super(message, opts);
    this.name = 'NodeError';
  }
}

const codeOf = (err: unknown): status => {
  if (err instanceof NodeError) return err.code;
  if (err instanceof ApiError) return err.grpcCode;
  const c = (err as { code?: unknown } | null)?.code;
  return typeof c === 'number' ? c : status.UNKNOWN;
};

const messageOf = (err: unknown): string => {
  const details = (err as { details?: unknown } | null)?.details;
  if (typeof details === 'string' && details) return details;
  return err instanceof Error ? err.message : String(err);
};

/**
 * errorMetadata is the envelope for a failed node, shaped like apid's: the status, and as the error text the
 * status error as Go prints it (apid's err.Error()), which talosctl shows as it is.
 */
function errorMetadata(node: string, err: unknown): Buffer {
  const message = messageOf(err);
  const code = codeOf(err);
  return encodeMetadata({ hostname: node, error: goStatusText(code, message), status: { code, message } });
}

/** unaryFailure is `EmptyResponse{messages:[{metadata:{hostname,error,status}}]}` for one node. */
export const unaryFailure = (node: string, err: unknown): Buffer =>
  lengthDelimited(1, lengthDelimited(1, errorMetadata(node, err)));

/** streamFailure is one streamed `Empty{metadata:{hostname,error,status}}` standing in for a node. */
export const streamFailure = (node: string, err: unknown): Buffer =>
  lengthDelimited(1, errorMetadata(node, err));

/** stampUnary names the node in every element of its reply. */
export const stampUnary = (node: string, method: string, reply: Uint8Array): Buffer =>
  withHostnameEach(reply, node, `${method} reply from ${node}`);

/** stampStreamed names the node in one streamed message. */
export const stampStreamed = (node: string, method: string, msg: Uint8Array): Buffer =>
  withHostname(msg, node, `${method} message from ${node}`);
