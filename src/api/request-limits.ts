// How large one request of each RPC may be. grpc-js refuses any message over MAX_MESSAGE_BYTES (32 MiB,
// upstream's limit for every call) as it arrives; below that, a unary or server-streaming request is
// checked against its method's own limit before it is parsed, so a client cannot make the node decode
// and hold tens of megabytes it never needed. docs/api-limits.md lists them.
import { MAX_CONFIG_BYTES } from '../config/decoder/limits.js';
import { ApiError } from './errors.js';

/** every request not listed below: paths, ids, selectors and options, nowhere near a mebibyte */
export const DEFAULT_REQUEST_BYTES = 1 << 20;

/** the requests that carry a payload, by method path */
const LIMITS: Readonly<Record<string, number>> = {
  // the config itself, with room for the request's other fields
  '/machine.MachineService/ApplyConfiguration': MAX_CONFIG_BYTES + (64 << 10),
};

/** requestLimit is the largest request `method` takes, in bytes. */
export const requestLimit = (method: string): number => LIMITS[method] ?? DEFAULT_REQUEST_BYTES;

/** checkRequestSize refuses a request of `bytes` over its method's limit with RESOURCE_EXHAUSTED. */
export function checkRequestSize(method: string, bytes: number): void {
  const limit = requestLimit(method);
  if (bytes > limit)
    throw new ApiError(
      'resource-exhausted',
      `${method}: the request is ${bytes} bytes, over this method's limit of ${limit} bytes`,
    );
}
