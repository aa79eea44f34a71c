import { describe, expect, it } from 'vitest';
import { decodeMbr, encodeProtectiveMbr } from '../../../../src/sys/block/gpt/mbr.js';

const entry = (b: Buffer, i = 0) => b.subarray(446 + i * 16, 446 + (i + 1) * 16);

describe('protective MBR', () => {
  it('covers a 64 MiB disk with one 0xEE partition from LBA 1', () => {
    const b = encodeProtectiveMbr(131072n);
    expect(b.length).toBe(512);
    const e = entry(b);
    expect(e[0]).toBe(0x00);
    expect([...e.subarray(1, 4)]).toEqual([0x00, 0x02, 0x00]);
    expect(e[4]).toBe(0xee);
    expect([...e.subarray(5, 8)]).toEqual([0xff, 0xff, 0xff]);
    expect(e.readUInt32LE(8)).toBe(1);
    expect(e.readUInt32LE(12)).toBe(131071);
    expect(b.readUInt16BE(510)).toBe(0x55aa);
    for (let i = 1; i < 4; i++) expect(entry(b, i).equals(Buffer.alloc(16))).toBe(true);
    expect(decodeMbr(b)).toEqual({ kind: 'protective', bootable: false });
  });

  it('caps the size at 0xFFFFFFFF sectors on a disk past 2 TiB', () => {
    expect(entry(encodeProtectiveMbr(1n << 33n)).readUInt32LE(12)).toBe(0xffffffff);
    expect(entry(encodeProtectiveMbr(0x100000000n)).readUInt32LE(12)).toBe(0xffffffff);
    expect(entry(encodeProtectiveMbr(0xffffffffn)).readUInt32LE(12)).toBe(0xfffffffe);
  });

  it('marks the partition active for legacy BIOSes when asked', () => {
    const b = encodeProtectiveMbr(2048n, { bootable: true });
    expect(entry(b)[0]).toBe(0x80);
    expect(decodeMbr(b)).toEqual({ kind: 'protective', bootable: true });
  });

  it('keeps boot code and disk signature, and clears stale partition entries', () => {
    const old = Buffer.alloc(512, 0xab);
    const b = encodeProtectiveMbr(2048n, { keep: old });
    expect(b.subarray(0, 446).equals(old.subarray(0, 446))).toBe(true);
    for (let i = 1; i < 4; i++) expect(entry(b, i).equals(Buffer.alloc(16))).toBe(true);
  });

  it('tells hybrid, legacy and absent MBRs apart', () => {
    const hybrid = encodeProtectiveMbr(2048n);
    entry(hybrid, 1)[4] = 0x0c;
    expect(decodeMbr(hybrid).kind).toBe('hybrid');
    const legacy = Buffer.alloc(512);
    legacy[510] = 0x55;
    legacy[511] = 0xaa;
    entry(legacy)[4] = 0x83;
    expect(decodeMbr(legacy).kind).toBe('legacy');
    expect(decodeMbr(Buffer.alloc(512)).kind).toBe('none');
  });
});
