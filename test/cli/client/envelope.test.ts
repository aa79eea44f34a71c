import { describe, expect, it } from 'vitest';
import { ClientError, joinErrors, nodeReply, splitReplies } from '../../../src/cli/client/index.js';

describe('the one-to-many envelope', () => {
  it('names each message by its metadata hostname, falling back to the node dialled', () => {
    const replies = splitReplies({ messages: [{ metadata: { hostname: 'a' }, v: 1 }, { v: 2 }] }, 'direct');
    expect(replies.map((r) => r.node)).toEqual(['a', 'direct']);
    expect(replies.every((r) => r.ok)).toBe(true);
  });

  it('turns a metadata error into that node’s failure, keeping the status code', () => {
    const r = nodeReply({ metadata: { hostname: '10.5.0.3', error: 'boom', status: { code: 12 } } }, 'x');
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error).toBeInstanceOf(ClientError);
    expect(r.error.message).toBe('error on node 10.5.0.3: boom');
    expect(r.error.node).toBe('10.5.0.3');
    expect(r.error.grpcCode).toBe(12);
  });

  it('joins several nodes’ failures one per line', () => {
    const e = joinErrors([
      new ClientError('node', 'error on node a: x'),
      new ClientError('node', 'error on node b: y'),
    ]);
    expect(e?.message).toBe('error on node a: x\nerror on node b: y');
    expect(joinErrors([])).toBeUndefined();
  });
});
