// Error ↔ gRPC status mapping for the State service, in both directions, with the finer class kept in a trailer.
import { Metadata, type ServerErrorResponse, type ServiceError, status } from '@grpc/grpc-js';
import type { Pointer } from '../resource/kind.js';
import { StateError, type StateErrorCode, stateErrorCode } from '../state/errors.js';
import { RemoteCallError, RequestError } from './errors.js';

export type StateMethod =
  | 'Get'
  | 'List'
  | 'Create'
  | 'Update'
  | 'Destroy'
  | 'Watch'
  | 'Teardown'
  | 'TeardownAndDestroy';

/**
 * Trailer naming the exact error class. Status codes are what upstream clients understand, but
 * several classes share one code (every non-phase update conflict is FAILED_PRECONDITION), so
 * our client reads this first and falls back to the code only for servers that do not send it.
 */
export const ERROR_CLASS_KEY = 'cosi-error-class';

/** Classes that are not state errors: an access rule said no, or the request was malformed. */
export type NonStateErrorClass = 'access-denied' | 'bad-request';

const STATE_ERROR_CODES: ReadonlySet<string> = new Set<StateErrorCode>([
  'not-found',
  'already-exists',
  'version-conflict',
  'pending-finalizers',
  'owner-conflict',
  'phase-conflict',
  'invalid-bookmark',
  'invalid-argument',
  'unsupported',
  'conflict',
]);

/** statusFor is the upstream status code of a state error class raised by `method`. */
export function statusFor(code: StateErrorCode, method: StateMethod): status {
  switch (code) {
    case 'not-found':
      return status.NOT_FOUND;
    case 'owner-conflict':
      return status.PERMISSION_DENIED;
    case 'invalid-bookmark':
      return status.FAILED_PRECONDITION;
    case 'invalid-argument':
      return status.INVALID_ARGUMENT;
    case 'unsupported':
      return status.UNIMPLEMENTED;
  }
  // What remains are conflicts; their code depends on the verb, as upstream's server decides.
  if (method === 'Create') return status.ALREADY_EXISTS;
  if (method === 'Update' && code === 'phase-conflict') return status.INVALID_ARGUMENT;
  return status.FAILED_PRECONDITION;
}

const statusError = (code: status, details: string, errorClass?: string): ServerErrorResponse => {
  const metadata = new Metadata();
  if (errorClass) metadata.set(ERROR_CLASS_KEY, errorClass);
  return Object.assign(new Error(details), { code, details, metadata });
};

export interface ToStatusOptions {
  /** the error came from an access rule: whatever its class, the caller was denied */
  denied?: boolean;
}

/** toStatusError turns anything a handler threw into a status the client can classify again. */
export function toStatusError(
  err: unknown,
  method: StateMethod,
  opts: ToStatusOptions = {},
): ServerErrorResponse {
  const details = err instanceof Error ? err.message : String(err);
  const code = stateErrorCode(err);
  if (opts.denied) return statusError(status.PERMISSION_DENIED, details, code ?? 'access-denied');
  if (code) return statusError(statusFor(code, method), details, code);
  if (err instanceof RequestError) return statusError(err.code, details, 'bad-request');
  return statusError(status.UNKNOWN, details);
}

const errorClassOf = (md: Metadata | undefined): string | undefined => {
  const v = md?.get(ERROR_CLASS_KEY)[0];
  return typeof v === 'string' ? v : undefined;
};

/** isServiceError recognises a failed call's error (it carries a numeric status code). */
export const isServiceError = (e: unknown): e is ServiceError =>
  e instanceof Error && typeof (e as Partial<ServiceError>).code === 'number';

/** legacyClass is how upstream's client reads a bare status code for `method`. */
function legacyClass(code: status, method: StateMethod): StateErrorCode | undefined {
  const writes = method !== 'Get' && method !== 'List' && method !== 'Watch';
  switch (code) {
    case status.NOT_FOUND:
      return 'not-found';
    case status.PERMISSION_DENIED:
      return writes ? 'owner-conflict' : undefined;
    case status.ALREADY_EXISTS:
      return method === 'Create' ? 'already-exists' : undefined;
    case status.INVALID_ARGUMENT:
      return method === 'Update' ? 'phase-conflict' : 'invalid-argument';
    case status.FAILED_PRECONDITION:
      return method === 'Watch' ? 'invalid-bookmark' : writes ? 'conflict' : undefined;
    default:
      return undefined;
  }
}

/**
 * fromStatusError restores the error class of a failed call: the trailer first (exact), then
 * the status code as upstream reads it. `ref` is the resource the call was about, so conflict
 * filters by type and namespace keep working on the client.
 */
export function fromStatusError(err: ServiceError, method: StateMethod, ref?: Pointer): Error {
  const cls = errorClassOf(err.metadata);
  const code =
    cls !== undefined
      ? STATE_ERROR_CODES.has(cls)
        ? (cls as StateErrorCode)
        : undefined
      : legacyClass(err.code, method);
  if (code) return new StateError(code, err.details, ref, { cause: err });
  return new RemoteCallError(method, err.code, err.details, err.metadata, { cause: err });
}

/**
 * isMissingMethod tells an UNIMPLEMENTED meaning "no such RPC" (a server older than the method)
 * from one we raised on purpose: ours always carry the class trailer.
 */
export const isMissingMethod = (e: unknown): boolean => {
  const s = e as Partial<Pick<ServiceError, 'code' | 'metadata'>> | undefined;
  return s?.code === status.UNIMPLEMENTED && errorClassOf(s.metadata) === undefined;
};
