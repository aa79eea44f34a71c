import { describe, expect, it } from 'vitest';
import { crc32c, crc32cRaw } from '../../../../src/sys/block/probe/crc32c.js';

describe('crc32c', () => {
  it('matches the published check value and the RFC 3720 (iSCSI) vectors', () => {
    expect(crc32c(Buffer.from('123456789'))).toBe(0xe3069283);
    expect(crc32c(Buffer.alloc(32))).toBe(0x8a9136aa);
    expect(crc32c(Buffer.alloc(32, 0xff))).toBe(0x62a8ab43);
    expect(crc32c(Buffer.from(Array.from({ length: 32 }, (_, i) => i)))).toBe(0x46dd794e);
  });

  it('gives the register before its final inversion as the raw form', () => {
    expect(crc32cRaw(Buffer.from('123456789'))).toBe(~0xe3069283 >>> 0);
    expect(crc32c(new Uint8Array(0))).toBe(0);
  });
});
