// TrustdError: why a worker got no certificate from trustd, with the gRPC status when a call failed.
import { status } from '@grpc/grpc-js';

export type TrustdErrorCode =
  /** no control plane endpoint to ask */
  | 'no-endpoints'
  /** the call failed: unreachable, refused (a wrong token is UNAUTHENTICATED), or timed out */
  | 'call-failed'
  /** trustd answered without a certificate */
  | 'bad-response';

export class TrustdError extends Error {
  constructor(
    readonly code: TrustdErrorCode,
    message: string,
    /** the gRPC status of a failed call */
    readonly grpcCode?: number,
    opts?: ErrorOptions,
  ) {
    super(message, opts);
    this.name = 'TrustdError';
  }
}

/** isUnauthenticated: trustd refused the token. */
export const isUnauthenticated = (e: unknown): boolean =>
  e instanceof TrustdError && e.grpcCode === status.UNAUTHENTICATED;
