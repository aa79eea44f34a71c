// The machine token as trustd's callers carry it: gRPC metadata `token`, as upstream's basic token
// credentials (pkg/grpc/middleware/auth/basic/token.go). Both sides of the check live here.
import { createHash, timingSafeEqual } from 'node:crypto';
import { Metadata } from '@grpc/grpc-js';

export const TOKEN_METADATA_KEY = 'token';

/** tokenMetadata is what a caller sends with each request. */
export function tokenMetadata(token: string): Metadata {
  const md = new Metadata();
  md.set(TOKEN_METADATA_KEY, token);
  return md;
}

export type TokenCheck = 'ok' | 'missing' | 'invalid';

const digest = (s: string) => createHash('sha256').update(s).digest();

/**
 * checkToken compares the first `token` value with `expected`. Hashing both first makes the comparison
 * constant-time whatever the lengths, as upstream. Unlike upstream, an empty expected token admits nobody:
 * a node without `machine.token` would otherwise sign for any caller sending an empty one.
 */
export function checkToken(md: Metadata, expected: string): TokenCheck {
  const [got] = md.get(TOKEN_METADATA_KEY);
  if (got === undefined) return 'missing';
  if (expected === '') return 'invalid';
  const text = typeof got === 'string' ? got : got.toString('utf8');
  return timingSafeEqual(digest(text), digest(expected)) ? 'ok' : 'invalid';
}
