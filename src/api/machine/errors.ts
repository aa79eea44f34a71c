// The machine handlers' error class: a gRPC status for what the sys rooms report (missing path → NOT_FOUND,
// bad request → INVALID_ARGUMENT), with the message naming the file or field that failed.
import { status } from '@grpc/grpc-js';
import { FsError } from '../../sys/fs/errors.js';
import { ProcfsError } from '../../sys/procfs/errors.js';

export type MachineErrorCode = 'not-found' | 'invalid-argument' | 'permission-denied' | 'internal';

const GRPC: Readonly<Record<MachineErrorCode, status>> = {
  'not-found': status.NOT_FOUND,
  'invalid-argument': status.INVALID_ARGUMENT,
  'permission-denied': status.PERMISSION_DENIED,
  internal: status.INTERNAL,
};

/** MachineApiError carries a numeric `code` and `details`, which the server turns into the call's status. */
export class MachineApiError extends Error {
  constructor(
    readonly reason: MachineErrorCode,
    message: string,
    opts?: ErrorOptions,
  ) {
    super(message, opts);
    this.name = 'MachineApiError';
  }
  get code(): status {
    return GRPC[this.reason];
  }
  get details(): string {
    return this.message;
  }
}

const is = (e: unknown, ...c: MachineErrorCode[]) => e instanceof MachineApiError && c.includes(e.reason);
export const isMachineNotFound = (e: unknown) => is(e, 'not-found');
export const isMachineInvalidArgument = (e: unknown) => is(e, 'invalid-argument');

/** invalidArgument names the RPC and the request field at fault. */
export const invalidArgument = (rpc: string, field: string, why: string): MachineApiError =>
  new MachineApiError('invalid-argument', `${rpc}: ${field}: ${why}`);

/** asApiFailure maps the sys rooms' errors to statuses; anything else passes through unchanged. */
export function asApiFailure(rpc: string, err: unknown): unknown {
  if (err instanceof FsError) {
    const reason: MachineErrorCode =
      err.code === 'not-found'
        ? 'not-found'
        : err.code === 'not-a-file' || err.code === 'not-absolute' || err.code === 'bad-path'
          ? 'invalid-argument'
          : err.code === 'permission-denied'
            ? 'permission-denied'
            : 'internal';
    return new MachineApiError(reason, `${rpc}: ${err.message}`, { cause: err });
  }
  if (err instanceof ProcfsError)
    return new MachineApiError(
      err.code === 'not-found' ? 'not-found' : 'internal',
      `${rpc}: ${err.message}`,
      {
        cause: err,
      },
    );
  return err;
}

/** mapped runs `fn` and rethrows what it throws through asApiFailure. */
export async function mapped<T>(rpc: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    throw asApiFailure(rpc, err);
  }
}
