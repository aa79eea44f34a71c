import { describe, expect, it } from 'vitest';
import { formatUuid, formatVolumeId } from '../../../../src/sys/block/probe/uuid.js';

describe('uuid formatting', () => {
  it('spells 16 bytes in RFC 4122 order, lowercase', () => {
    expect(formatUuid(Buffer.from('0f3c1a2b4d5e4f608a7b9c0d1e2f3a4b', 'hex'))).toBe(
      '0f3c1a2b-4d5e-4f60-8a7b-9c0d1e2f3a4b',
    );
  });
  it('spells a FAT serial most significant byte first, uppercase', () => {
    expect(formatVolumeId(Buffer.from([0xcd, 0xab, 0x34, 0x12]))).toBe('1234-ABCD');
  });
  it('treats all-zero identifiers as none, as blkid', () => {
    expect(formatUuid(Buffer.alloc(16))).toBeUndefined();
    expect(formatVolumeId(Buffer.alloc(4))).toBeUndefined();
  });
  it('refuses a field of the wrong width', () => {
    expect(() => formatUuid(Buffer.alloc(15))).toThrow(/16 bytes, got 15/);
    expect(() => formatVolumeId(Buffer.alloc(5))).toThrow(/4 bytes, got 5/);
  });
});
