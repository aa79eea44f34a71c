import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { crc32, crc32Portable } from '../../../../src/sys/block/gpt/crc32.js';

describe('crc32', () => {
  it('gives the IEEE check value for "123456789"', () => {
    const check = Buffer.from('123456789', 'ascii');
    expect(crc32(check)).toBe(0xcbf43926);
    expect(crc32Portable(check)).toBe(0xcbf43926);
  });

  it('is 0 for no bytes and 0xD202EF8D for one zero byte', () => {
    expect(crc32Portable(Buffer.alloc(0))).toBe(0);
    expect(crc32Portable(Buffer.alloc(1))).toBe(0xd202ef8d);
  });

  it('agrees between the table-driven and the chosen implementation on a 16 KiB array', () => {
    const data = randomBytes(16384);
    expect(crc32Portable(data)).toBe(crc32(data));
    expect(crc32Portable(data.subarray(3, 1000))).toBe(crc32(data.subarray(3, 1000)));
  });
});
