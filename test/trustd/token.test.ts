import { Metadata } from '@grpc/grpc-js';
import { describe, expect, it } from 'vitest';
import { checkToken, TOKEN_METADATA_KEY, tokenMetadata } from '../../src/trustd/index.js';

const TOKEN = 'abcdef.0123456789abcdef';

describe('the machine token in gRPC metadata', () => {
  it('travels under the key `token`, as upstream’s basic token credentials send it', () => {
    expect(TOKEN_METADATA_KEY).toBe('token');
    expect(tokenMetadata(TOKEN).get('token')).toEqual([TOKEN]);
  });

  it('is ok only when equal; absent is missing, anything else invalid', () => {
    expect(checkToken(tokenMetadata(TOKEN), TOKEN)).toBe('ok');
    expect(checkToken(new Metadata(), TOKEN)).toBe('missing');
    expect(checkToken(tokenMetadata('abcdef.0123456789abcdeg'), TOKEN)).toBe('invalid');
    expect(checkToken(tokenMetadata(`${TOKEN}x`), TOKEN)).toBe('invalid');
    expect(checkToken(tokenMetadata(''), TOKEN)).toBe('invalid');
  });

  it('admits nobody on a node without a token, not even an empty one', () => {
    expect(checkToken(tokenMetadata(''), '')).toBe('invalid');
  });
});
