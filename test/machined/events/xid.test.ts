import { describe, expect, it } from 'vitest';
import { encodeXid, newXidSource } from '../../../src/machined/events/xid.js';

describe('xid', () => {
  it('encodes the reference id as the xid format does', () => {
    const id = Uint8Array.from([0x4d, 0x88, 0xe1, 0x5b, 0x60, 0xf4, 0x86, 0xe4, 0x28, 0x41, 0x2d, 0xc9]);
    expect(encodeXid(id)).toBe('9m4e2mr0ui3e8a215n4g');
  });

  it('makes 20-character ids that sort in creation order', () => {
    const src = newXidSource(Uint8Array.from([1, 2, 3]), 42);
    const ids = [src.next(1_000_000), src.next(1_000_000), src.next(2_000_000), src.next(2_000_000)];
    for (const id of ids) expect(id).toMatch(/^[0-9a-v]{20}$/);
    expect(new Set(ids).size).toBe(4);
    expect([...ids].sort()).toEqual(ids.slice(0, 2).sort().concat(ids.slice(2).sort()));
    expect(ids[2]! > ids[0]!).toBe(true);
  });
});
