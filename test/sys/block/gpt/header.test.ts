import { describe, expect, it } from 'vitest';
import { crc32 } from '../../../../src/sys/block/gpt/crc32.js';
import { isGptError } from '../../../../src/sys/block/gpt/errors.js';
import { decodeHeader, encodeHeader, type GptHeader } from '../../../../src/sys/block/gpt/header.js';

const header: GptHeader = {
  revision: 0x00010000,
  headerSize: 92,
  myLba: 1n,
  alternateLba: 131071n,
  firstUsableLba: 2048n,
  lastUsableLba: 131038n,
  diskGuid: 'E61DA7D3-834D-4306-8742-D6ABDDACB18E',
  entriesLba: 2n,
  entryCount: 128,
  entrySize: 128,
  entriesCrc: 0xab54d286,
};

const codeOf = (f: () => unknown): string | undefined => {
  try {
    f();
  } catch (e) {
    if (isGptError(e)) return e.code;
    throw e;
  }
  return undefined;
};

describe('GPT header', () => {
  it.each([512, 4096])('round-trips in a %d-byte sector, zero past its 92 bytes', (ss) => {
    const b = encodeHeader(header, ss);
    expect(b.length).toBe(ss);
    expect(b.subarray(0, 8).toString('latin1')).toBe('EFI PART');
    expect(b.readUInt32LE(8)).toBe(0x00010000);
    expect(b.readUInt32LE(12)).toBe(92);
    expect(b.subarray(92).equals(Buffer.alloc(ss - 92))).toBe(true);
    expect(decodeHeader(b, 'primary')).toEqual(header);
  });

  it('stores the CRC of its 92 bytes with the CRC field zeroed', () => {
    const b = encodeHeader(header, 512);
    const copy = Buffer.from(b.subarray(0, 92));
    copy.writeUInt32LE(0, 16);
    expect(b.readUInt32LE(16)).toBe(crc32(copy));
  });

  it('puts each field at the offset the spec gives', () => {
    const b = encodeHeader(header, 512);
    expect(b.readBigUInt64LE(24)).toBe(1n);
    expect(b.readBigUInt64LE(32)).toBe(131071n);
    expect(b.readBigUInt64LE(40)).toBe(2048n);
    expect(b.readBigUInt64LE(48)).toBe(131038n);
    expect(b.subarray(56, 72).toString('hex')).toBe('d3a71de64d8306438742d6abddacb18e');
    expect(b.readBigUInt64LE(72)).toBe(2n);
    expect(b.readUInt32LE(80)).toBe(128);
    expect(b.readUInt32LE(84)).toBe(128);
    expect(b.readUInt32LE(88)).toBe(0xab54d286);
  });

  it('refuses a damaged header, naming where and why', () => {
    const good = encodeHeader(header, 512);
    const flipped = Buffer.from(good);
    flipped[45] = (flipped[45] ?? 0) ^ 1;
    expect(() => decodeHeader(flipped, 'primary header (LBA 1)')).toThrow(
      /^primary header \(LBA 1\): header CRC is 0x[0-9a-f]{8}, its bytes give 0x[0-9a-f]{8}$/,
    );
    expect(codeOf(() => decodeHeader(flipped, 'x'))).toBe('bad-crc');
    expect(codeOf(() => decodeHeader(Buffer.alloc(512), 'x'))).toBe('bad-header');
    const tooBig = Buffer.from(good);
    tooBig.writeUInt32LE(600, 12);
    expect(() => decodeHeader(tooBig, 'backup')).toThrow('backup: header size 600 is outside 92..512');
  });

  it('accepts only 128-byte entries and a sane array size', () => {
    expect(codeOf(() => decodeHeader(encodeHeader({ ...header, entrySize: 256 }, 512), 'x'))).toBe(
      'bad-header',
    );
    expect(codeOf(() => decodeHeader(encodeHeader({ ...header, entryCount: 0 }, 512), 'x'))).toBe(
      'bad-header',
    );
    expect(codeOf(() => decodeHeader(encodeHeader({ ...header, entryCount: 1 << 20 }, 512), 'x'))).toBe(
      'bad-header',
    );
    expect(codeOf(() => encodeHeader({ ...header, headerSize: 91 }, 512))).toBe('invalid-argument');
  });
});
