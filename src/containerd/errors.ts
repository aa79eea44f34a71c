// ContainerdError: a failed call to containerd (or its CRI plugin), with the gRPC status code it gave.
import { status } from '@grpc/grpc-js';

export class ContainerdError extends Error {
  constructor(
    readonly code: number,
    message: string,
    opts?: ErrorOptions,
  ) {
    super(message, opts);
    this.name = 'ContainerdError';
  }
}

/** isContainerdDown: the socket is missing or refuses, so containerd is not running (yet). */
export const isContainerdDown = (e: unknown): boolean =>
  e instanceof ContainerdError && e.code === status.UNAVAILABLE;

/** isContainerdNotFound: containerd answered that the object asked for does not exist. */
export const isContainerdNotFound = (e: unknown): boolean =>
  e instanceof ContainerdError && e.code === status.NOT_FOUND;
