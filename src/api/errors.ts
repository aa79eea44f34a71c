// The API room's error class: a gRPC status code plus a message naming the node, method or field at fault.
import { Metadata, type ServerErrorResponse, status } from '@grpc/grpc-js';

export type ApiErrorCode =
  | 'unauthenticated'
  | 'permission-denied'
  | 'invalid-argument'
  | 'not-found'
  | 'already-exists'
  | 'failed-precondition'
  | 'resource-exhausted'
  | 'unimplemented'
  | 'unavailable'
  | 'deadline-exceeded'
  | 'internal';

const GRPC_CODES: Readonly<Record<ApiErrorCode, status>> = {
  unauthenticated: status.UNAUTHENTICATED,
  'permission-denied': status.PERMISSION_DENIED,
  'invalid-argument': status.INVALID_ARGUMENT,
  'not-found': status.NOT_FOUND,
  'already-exists': status.ALREADY_EXISTS,
  'failed-precondition': status.FAILED_PRECONDITION,
  'resource-exhausted': status.RESOURCE_EXHAUSTED,
  unimplemented: status.UNIMPLEMENTED,
  unavailable: status.UNAVAILABLE,
  'deadline-exceeded': status.DEADLINE_EXCEEDED,
  internal: status.INTERNAL,
};

export class ApiError extends Error {
  constructor(
    readonly code: ApiErrorCode,
    message: string,
    opts?: ErrorOptions,
  ) {
    super(message, opts);
    this.name = 'ApiError';
  }
  get grpcCode(): status {
    return GRPC_CODES[this.code];
  }
}

const is = (e: unknown, ...c: ApiErrorCode[]) => e instanceof ApiError && c.includes(e.code);
export const isPermissionDenied = (e: unknown) => is(e, 'permission-denied');
export const isUnauthenticated = (e: unknown) => is(e, 'unauthenticated');
export const isUnimplemented = (e: unknown) => is(e, 'unimplemented');

/** GrpcStatusLike is anything carrying a numeric gRPC code, such as a grpc-js ServiceError. */
interface GrpcStatusLike {
  readonly code: number;
  readonly details?: string;
  readonly message?: string;
}
const hasGrpcCode = (e: unknown): e is GrpcStatusLike =>
  typeof e === 'object' && e !== null && typeof (e as { code?: unknown }).code === 'number';

/**
 * the longest status message sent, in characters: the message travels percent-encoded in the trailers,
 * whose block HTTP/2 caps (64 KiB by default here); a longer one failed to send at all and left the call
 * without a status, its client waiting
 */
export const MAX_STATUS_MESSAGE = 8 << 10;

/** boundedMessage cuts a status message to MAX_STATUS_MESSAGE characters, saying how much was cut. */
export function boundedMessage(details: string): string {
  if (details.length <= MAX_STATUS_MESSAGE) return details;
  return `${details.slice(0, MAX_STATUS_MESSAGE)}… (${details.length - MAX_STATUS_MESSAGE} more characters cut)`;
}

/** toServerError maps anything a handler threw to a status; errors that already carry a gRPC code keep it. */
export function toServerError(err: unknown, method: string): ServerErrorResponse {
  let code: status = status.INTERNAL;
  let details: string;
  if (err instanceof ApiError) {
    code = err.grpcCode;
    details = err.message;
  } else if (hasGrpcCode(err)) {
    code = err.code;
    details = err.details ?? err.message ?? `${method} failed`;
  } else {
    details = `${method}: ${err instanceof Error ? err.message : String(err)}`;
  }
  details = boundedMessage(details);
  return Object.assign(new Error(details), { code, details, metadata: new Metadata() });
}
