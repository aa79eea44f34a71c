// MachineService.MetaWrite and MetaDelete: one META tag set or deleted, as upstream's — the key must fit a
// byte, a value that does not fit the partition is RESOURCE_EXHAUSTED, deleting an absent key NOT_FOUND.
// A node whose META partition is not there yet keeps the value in memory until it is.
import { isMetaError } from '../../sys/block/meta/errors.js';
import { ApiError } from '../errors.js';
import { type Handler, unaryHandler } from '../handlers.js';
import type { MetaHostLike } from './deps.js';

const asKey = (key: unknown): number => {
  const k = Number(key ?? 0);
  if (!Number.isInteger(k) || k < 0 || k > 0xff)
    throw new ApiError('invalid-argument', 'key must be a uint8');
  return k;
};

/** metaFailure maps what META refused to the status upstream answers with. */
const metaFailure = (e: unknown): never => {
  if (isMetaError(e, 'bad-tag')) throw new ApiError('invalid-argument', e.message, { cause: e });
  if (isMetaError(e, 'too-large'))
    throw new ApiError('resource-exhausted', `meta write failed: ${e.message}`, { cause: e });
  throw e;
};

export const metaWriteHandler = (meta: MetaHostLike): Handler =>
  unaryHandler(async (req) => {
    const key = asKey(req.key);
    const value = req.value instanceof Uint8Array ? req.value : Buffer.alloc(0);
    await meta.set(key, value).catch(metaFailure);
    return { messages: [{}] };
  });

export const metaDeleteHandler = (meta: MetaHostLike): Handler =>
  unaryHandler(async (req) => {
    const key = asKey(req.key);
    const had = await meta.delete(key).catch(metaFailure);
    if (!had) throw new ApiError('not-found', 'meta key not found');
    return { messages: [{}] };
  });

/** metaUnsupportedHandler is a container node's answer: it has no META partition, as upstream's. */
export const metaUnsupportedHandler = (): Handler =>
  unaryHandler(async () => {
    throw new ApiError('failed-precondition', 'method is not supported in container mode');
  });
