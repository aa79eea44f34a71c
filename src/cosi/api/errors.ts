// Errors of the gRPC layer that are not state errors: malformed requests and failed remote calls.
import type { Metadata, status } from '@grpc/grpc-js';

/** RequestError rejects a malformed request with a chosen status code (INVALID_ARGUMENT, UNIMPLEMENTED). */
export class RequestError extends Error {
  constructor(
    readonly code: status,
    message: string,
    opts?: ErrorOptions,
  ) {
    super(message, opts);
    this.name = 'RequestError';
  }
}

/**
 * RemoteCallError is a failed State call whose status maps to no state error class
 * (access denied, transport failure, server bug). `code` is the gRPC status code.
 */
export class RemoteCallError extends Error {
  constructor(
    readonly method: string,
    readonly code: status,
    readonly details: string,
    readonly metadata?: Metadata,
    opts?: ErrorOptions,
  ) {
    super(`cosi.resource.State/${method}: ${details}`, opts);
    this.name = 'RemoteCallError';
  }
}
