// The client's typed errors: every failure names the node (or the config) it belongs to and why.
import { type ServiceError, status } from '@grpc/grpc-js';
import { goCodeName, goStatusText } from '../../api/go-status.js';
import { oneLine } from './one-line.js';
import { transportText } from './transport.js';

export type ClientErrorCode = 'config' | 'node' | 'rpc';

/** ClientError is a failure talking to the API or reading the client config. */
export class ClientError extends Error {
  constructor(
    readonly code: ClientErrorCode,
    message: string,
    /** the node that failed, when one did */
    readonly node?: string,
    /** the gRPC status code, when the failure came from the wire */
    readonly grpcCode?: status,
    opts?: ErrorOptions,
  ) {
    super(message, opts);
    this.name = 'ClientError';
  }
}

export { goCodeName };

const isServiceError = (e: unknown): e is ServiceError =>
  e instanceof Error && typeof (e as Partial<ServiceError>).code === 'number' && 'details' in e;

/**
 * rpcText is a gRPC failure as Go prints it, so messages match what talosctl users know, in one line (a
 * refusal listing several problems among them).
 */
export function rpcText(e: unknown): string {
  if (isServiceError(e)) return goStatusText(e.code, oneLine(e.details));
  return e instanceof Error ? e.message : String(e);
}

/** nodeError is one node's failure: "error on node 10.5.0.2: why". */
export const nodeError = (node: string, why: string, grpcCode?: status): ClientError =>
  new ClientError('node', `error on node ${node}: ${why}`, node, grpcCode);

/**
 * envelopeError is a failure a node's reply carried. Keel's apid words it as Go prints a status error, as
 * upstream's does; an older one left grpc-js's words for a node it could not reach, which are made to read
 * as talosctl's `rpc error: code = Unavailable desc = connection refused`.
 */
export function envelopeError(node: string, text: string, grpcCode?: status): ClientError {
  const why = oneLine(text);
  if (why.startsWith('rpc error: ')) return nodeError(node, why, grpcCode);
  const plain = transportText(why);
  if (plain === why) return nodeError(node, why, grpcCode);
  const code = grpcCode ?? status.UNAVAILABLE;
  return nodeError(node, goStatusText(code, plain), code);
}

/** fromRPC wraps a call failure, naming the node when the call targeted one, and what was being done. */
export function fromRPC(e: unknown, node: string | undefined, what?: string): ClientError {
  if (e instanceof ClientError) return e;
  const code = isServiceError(e) ? e.code : undefined;
  const why = what ? `${what}: ${rpcText(e)}` : rpcText(e);
  return node ? nodeError(node, why, code) : new ClientError('rpc', why, undefined, code, { cause: e });
}

/** isCancelled tells an aborted call from a failed one, so Ctrl-C ends a watch cleanly. */
export const isCancelled = (e: unknown): boolean => isServiceError(e) && e.code === status.CANCELLED;

/** joinErrors is several nodes' failures as one error, one line each, as Go's errors.Join prints them. */
export function joinErrors(errors: readonly ClientError[]): ClientError | undefined {
  if (errors.length === 0) return undefined;
  if (errors.length === 1) return errors[0];
  return new ClientError('node', errors.map((e) => e.message).join('\n'));
}
