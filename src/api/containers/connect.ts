// Reaching the node's containerd for one call: a client made and always closed, and containerd's failures
// turned into the API's codes (Unavailable, naming containerd, when it is not running, as upstream).
import { ContainerdClient, ContainerdError, CriClient, isContainerdDown } from '../../containerd/index.js';
import { ApiError, type ApiErrorCode } from '../errors.js';

/** ContainerdHost: where the node's containerd listens. */
export interface ContainerdHost {
  readonly socket: string;
}

const CODES: Readonly<Record<number, ApiErrorCode>> = {
  3: 'invalid-argument',
  5: 'not-found',
  6: 'already-exists',
  9: 'failed-precondition',
  12: 'unimplemented',
  14: 'unavailable',
};

/** apiErrorOf keeps an ApiError and maps a ContainerdError's code; the message always names containerd. */
export function apiErrorOf(e: unknown): ApiError {
  if (e instanceof ApiError) return e;
  if (isContainerdDown(e))
    return new ApiError('unavailable', `error connecting to containerd: ${(e as Error).message}`, {
      cause: e,
    });
  const code = e instanceof ContainerdError ? (CODES[e.code] ?? 'internal') : 'internal';
  return new ApiError(code, `containerd: ${(e as Error).message}`, { cause: e });
}

export async function withContainerd<T>(
  host: ContainerdHost,
  fn: (c: ContainerdClient) => Promise<T>,
): Promise<T> {
  const client = new ContainerdClient({ socket: host.socket });
  try {
    return await fn(client);
  } catch (e) {
    throw apiErrorOf(e);
  } finally {
    client.close();
  }
}

export async function withCri<T>(host: ContainerdHost, fn: (c: CriClient) => Promise<T>): Promise<T> {
  const client = new CriClient({ socket: host.socket });
  try {
    return await fn(client);
  } catch (e) {
    throw apiErrorOf(e);
  } finally {
    client.close();
  }
}
