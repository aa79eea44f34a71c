// The legacy syslinux ADV codec. Facts from siderolabs/go-adv adv/syslinux/syslinux.go and its test data
// (testdata/adv.sys, read at 3818a65): two 512-byte sectors at the end, little-endian head 0x5a2d2fa5 at 0,
// a checksum at 4 that makes the words 4..508 sum to 0xa3041767, {u8 tag, u8 length} TLVs from 8, tail
// 0xdd28bf64 at 508, the second sector a copy of the first; its writer keeps 2 bytes before the tail free.
import { describe, expect, it } from 'vitest';
import {
  decodeSyslinux,
  encodeSyslinux,
  isMetaError,
  SYSLINUX_AREA,
  SYSLINUX_SECTOR,
} from '../../../../src/sys/block/meta/index.js';
import { resealSyslinux, tagMap } from './fixtures.js';

describe('syslinux ADV layout', () => {
  it('writes the bytes of upstream test data for boot-once "test me", in both sectors', () => {
    const area = encodeSyslinux(tagMap({ 1: 'test me' }));
    expect(area.length).toBe(SYSLINUX_AREA);
    for (const s of [area.subarray(0, 512), area.subarray(512)]) {
      expect([...s.subarray(0, 17)]).toEqual([
        165, 47, 45, 90, 142, 155, 111, 208, 1, 7, 116, 101, 115, 116, 32, 109, 101,
      ]);
      expect(s.subarray(17, 508).equals(Buffer.alloc(491))).toBe(true);
      expect([...s.subarray(508)]).toEqual([100, 191, 40, 221]);
    }
  });

  it('writes an empty ADV whose checksum is the checksum magic itself, as upstream test data has it', () => {
    const area = encodeSyslinux(new Map());
    expect([...area.subarray(0, 8)]).toEqual([165, 47, 45, 90, 103, 23, 4, 163]);
    expect(decodeSyslinux(area).size).toBe(0);
  });

  it('round-trips tags', () => {
    const tags = tagMap({ 1: 'once', 6: 'A', 9: 'x'.repeat(255) });
    expect(decodeSyslinux(encodeSyslinux(tags))).toEqual(tags);
  });
});

describe('syslinux ADV damage', () => {
  it('reads sector 1 when sector 0 is damaged, as syslinux does', () => {
    const area = encodeSyslinux(tagMap({ 6: 'B' }));
    area[10]! ^= 1;
    expect(decodeSyslinux(area)).toEqual(tagMap({ 6: 'B' }));
    area.fill(0, 0, 4);
    expect(decodeSyslinux(area)).toEqual(tagMap({ 6: 'B' }));
  });

  it('names both sectors when neither is valid', () => {
    const area = encodeSyslinux(tagMap({ 6: 'B' }));
    area[10]! ^= 1;
    area[512 + 508] = 0;
    expect(() => decodeSyslinux(area, 'META syslinux adv')).toThrow(
      /META syslinux adv sector 0: the checksum does not add up; META syslinux adv sector 1: head 0x5a2d2fa5, tail 0xdd28bf00/,
    );
    expect(() => decodeSyslinux(Buffer.alloc(SYSLINUX_AREA))).toThrow(/sector 0: head 0x00000000/);
    expect(() => decodeSyslinux(Buffer.alloc(SYSLINUX_SECTOR))).toThrow(/512 bytes, want 1024/);
  });

  it('refuses, even with a good checksum, a TLV past the tail and a repeated tag', () => {
    const over = encodeSyslinux(tagMap({ 6: 'B' }));
    over[9] = 250; // tag 6 at 0x8 now spans 250 bytes; the TLV after it claims one byte more than is left
    over[8 + 2 + 250] = 7;
    over[8 + 2 + 250 + 1] = 247;
    resealSyslinux(over.subarray(0, 512));
    over.copy(over, 512, 0, 512);
    expect(() => decodeSyslinux(over)).toThrow(/tag 0x07 at 0x104: 247 bytes claimed, 246 left/);

    const dup = encodeSyslinux(tagMap({ 6: 'B' }));
    dup.set([6, 1, 0x43], 11);
    resealSyslinux(dup.subarray(0, 512));
    dup.copy(dup, 512, 0, 512);
    try {
      decodeSyslinux(dup);
      expect.unreachable();
    } catch (e) {
      expect(isMetaError(e, 'duplicate-tag')).toBe(true);
    }
  });
});

describe('syslinux ADV capacity', () => {
  it('holds 498 bytes of TLVs and not one more', () => {
    const full = new Map([
      [6, Buffer.alloc(255, 1)],
      [7, Buffer.alloc(239, 2)],
    ]);
    expect(decodeSyslinux(encodeSyslinux(full))).toEqual(full);
    const over = new Map([
      [6, Buffer.alloc(255, 1)],
      [7, Buffer.alloc(240, 2)],
    ]);
    expect(() => encodeSyslinux(over)).toThrow(
      /tag 0x07: 240 bytes \(\+2 header\) do not fit, 241 of 498 bytes left/,
    );
  });

  it('refuses a value longer than its one length byte', () => {
    expect(() => encodeSyslinux(new Map([[6, Buffer.alloc(256)]]))).toThrow(
      /tag 0x06: 256 bytes, at most 255/,
    );
  });
});
