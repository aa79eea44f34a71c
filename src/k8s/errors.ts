// KubeError: a failed Kubernetes API call, classified as client-go's apierrors predicates classify it (by
// HTTP status and the Status object's reason), so callers decide by behaviour: skip, retry, or give up.
export type KubeErrorCode =
  /** the kubeconfig cannot be used */
  | 'kubeconfig'
  /** no answer: connection refused, TLS, timeout */
  | 'transport'
  /** the API server answered with an error status */
  | 'status'
  /** discovery knows no resource for this kind */
  | 'no-match';

export class KubeError extends Error {
  constructor(
    readonly code: KubeErrorCode,
    message: string,
    /** the HTTP status and the Status reason (`NotFound`, `Invalid`, …) when the server answered */
    readonly status?: number,
    readonly reason?: string,
    opts?: ErrorOptions,
  ) {
    super(message, opts);
    this.name = 'KubeError';
  }
}

const answered = (e: unknown, status: number, reason: string): boolean =>
  e instanceof KubeError &&
  e.code === 'status' &&
  (e.reason === reason || (!e.reason && e.status === status));

export const isNotFound = (e: unknown) => answered(e, 404, 'NotFound');
export const isAlreadyExists = (e: unknown) => answered(e, 409, 'AlreadyExists');
export const isInvalid = (e: unknown) => answered(e, 422, 'Invalid');
export const isBadRequest = (e: unknown) => answered(e, 400, 'BadRequest');
export const isMethodNotSupported = (e: unknown) => answered(e, 405, 'MethodNotAllowed');
export const isNoMatch = (e: unknown) => e instanceof KubeError && e.code === 'no-match';
export const isConflict = (e: unknown) => answered(e, 409, 'Conflict');
export const isForbidden = (e: unknown) => answered(e, 403, 'Forbidden');
/** isUnreachable: no answer at all (connection refused, TLS, timeout) */
export const isUnreachable = (e: unknown) => e instanceof KubeError && e.code === 'transport';
