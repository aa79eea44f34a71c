import { describe, expect, it } from 'vitest';
import { oid, setOf, time, tlv, unsignedInteger } from '../../../src/pki/internal/der.js';
import { read, readOid, readTime } from '../../../src/pki/internal/der-reader.js';

const hex = (b: Buffer) => b.toString('hex');

describe('DER writer', () => {
  it('uses short lengths below 128 bytes and long form above', () => {
    expect(hex(tlv(0x04, Buffer.alloc(127))).slice(0, 4)).toBe('047f');
    expect(hex(tlv(0x04, Buffer.alloc(128))).slice(0, 6)).toBe('048180');
    expect(hex(tlv(0x04, Buffer.alloc(300))).slice(0, 8)).toBe('0482012c');
  });

  it('encodes unsigned integers minimally with a sign octet when needed', () => {
    expect(hex(unsignedInteger(Buffer.from([0, 0, 5])))).toBe('020105');
    expect(hex(unsignedInteger(Buffer.from([0x80])))).toBe('02020080');
    expect(hex(unsignedInteger(Buffer.from([0])))).toBe('020100');
  });

  it('encodes object identifiers with base-128 arcs and reads them back', () => {
    expect(hex(oid('1.2.840.10045.4.3.2'))).toBe('06082a8648ce3d040302');
    expect(hex(oid('1.3.101.112'))).toBe('06032b6570');
    expect(readOid(read(oid('2.5.29.37')))).toBe('2.5.29.37');
  });

  it('picks UTCTime up to 2049 and GeneralizedTime from 2050, dropping milliseconds', () => {
    const a = new Date('2049-12-31T23:59:59.900Z');
    expect(time(a).subarray(2).toString()).toBe('491231235959Z');
    expect(time(a)[0]).toBe(0x17);
    const b = new Date('2050-01-01T00:00:00Z');
    expect(time(b).subarray(2).toString()).toBe('20500101000000Z');
    expect(time(b)[0]).toBe(0x18);
    expect(readTime(read(time(a)))).toEqual(new Date('2049-12-31T23:59:59Z'));
    expect(readTime(read(time(b)))).toEqual(b);
  });

  it('sorts SET OF members by their encoding', () => {
    const s = setOf(Buffer.from([0x04, 0x01, 0x02]), Buffer.from([0x04, 0x01, 0x01]));
    expect(hex(s)).toBe('3106040101040102');
  });
});
