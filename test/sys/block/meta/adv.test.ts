// The Talos ADV codec. Layout facts from siderolabs/go-adv adv/talos/talos.go (read at 3818a65): Length
// 256 KiB, DataLength = Length − 40, big-endian {u32 tag, u32 size, value} packed after magic1 0x5a4b3c2d,
// tag 0 or fewer than 8 bytes left ends the walk, sha256 of the block with its 32-byte field (−0x24) zeroed,
// magic2 0xa5b4c3d2 at −4.
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import {
  ADV_DATA_LENGTH,
  ADV_LENGTH,
  decodeAdv,
  encodeAdv,
  isMetaDamage,
  isMetaError,
  MetaError,
} from '../../../../src/sys/block/meta/index.js';
import { resealTalos, seeded, tagMap, talosBlock } from './fixtures.js';

const codeOf = (f: () => unknown): string | undefined => {
  try {
    f();
  } catch (e) {
    if (e instanceof MetaError) return e.code;
    throw e;
  }
  return undefined;
};

describe('Talos ADV layout', () => {
  it('is upstream layout byte for byte: magic1, packed big-endian TLVs in tag order, zeros, sha256, magic2', () => {
    const tags = tagMap({ 10: 'net', 6: 'A', 16: 'token' });
    const b = encodeAdv(tags);
    expect(b.length).toBe(ADV_LENGTH);
    expect(b.subarray(0, 4)).toEqual(Buffer.from([0x5a, 0x4b, 0x3c, 0x2d]));
    // tag 6 first: u32 BE tag, u32 BE size, then the value with no alignment padding
    expect(b.subarray(4, 13)).toEqual(Buffer.from([0, 0, 0, 6, 0, 0, 0, 1, 0x41]));
    expect(b.readUInt32BE(13)).toBe(10);
    expect(b.readUInt32BE(17)).toBe(3);
    expect(b.readUInt32BE(24)).toBe(16);
    expect(b.subarray(32, 37).toString()).toBe('token');
    expect(b.subarray(37, ADV_LENGTH - 36).equals(Buffer.alloc(ADV_LENGTH - 36 - 37))).toBe(true);
    expect(b.subarray(ADV_LENGTH - 4)).toEqual(Buffer.from([0xa5, 0xb4, 0xc3, 0xd2]));
    const byHand = talosBlock([
      [6, Buffer.from('A')],
      [10, Buffer.from('net')],
      [16, Buffer.from('token')],
    ]);
    expect(b.equals(byHand)).toBe(true);
  });

  it('seals with the sha256 that sha256sum computes over the block with its checksum field zeroed', () => {
    const b = encodeAdv(tagMap({ 7: 'ghcr.io/siderolabs/installer:v1.9.0' }));
    const zeroed = Buffer.from(b);
    zeroed.fill(0, ADV_LENGTH - 36, ADV_LENGTH - 4);
    const judged = execFileSync('sha256sum', ['-'], { input: zeroed }).toString().split(' ')[0];
    expect(b.subarray(ADV_LENGTH - 36, ADV_LENGTH - 4).toString('hex')).toBe(judged);
  });

  it('round-trips random tag sets', () => {
    const r = seeded(30);
    for (let round = 0; round < 50; round++) {
      const tags = new Map<number, Buffer>();
      for (let n = r.int(12); n > 0; n--) tags.set(1 + r.int(255), r.bytes(r.int(2000)));
      expect(decodeAdv(encodeAdv(tags))).toEqual(tags);
    }
  });

  it('reads an empty block as no tags', () => {
    expect(decodeAdv(encodeAdv(new Map())).size).toBe(0);
  });

  it('stops at the end tag, so bytes after it are padding (the checksum still covers them)', () => {
    const b = talosBlock([[6, Buffer.from('A')]]);
    b.writeUInt32BE(7, 4 + 9 + 4); // a TLV-looking word after the end tag
    b.writeUInt32BE(1, 4 + 9 + 8);
    expect(decodeAdv(resealTalos(b))).toEqual(tagMap({ 6: 'A' }));
  });
});

describe('Talos ADV damage', () => {
  const good = () => encodeAdv(tagMap({ 6: 'B', 9: '{"provider":"luks2"}' }));

  it('refuses a block of the wrong length', () => {
    expect(codeOf(() => decodeAdv(Buffer.alloc(4096)))).toBe('bad-length');
  });

  it('refuses a wrong magic1 or magic2, naming it', () => {
    const a = good();
    a[0] = 0;
    expect(() => decodeAdv(a, 'copy 1')).toThrow(/copy 1: magic1 is 0x004b3c2d, want 0x5a4b3c2d/);
    const b = good();
    b[ADV_LENGTH - 1] = 0;
    expect(() => decodeAdv(b)).toThrow(/magic2 at 0x3fffc is 0xa5b4c300/);
  });

  it('refuses a block whose data no longer matches its checksum, anywhere', () => {
    for (const at of [4, 9, 5000, ADV_LENGTH - 37, ADV_LENGTH - 20]) {
      const b = good();
      b[at]! ^= 0x40;
      expect(codeOf(() => decodeAdv(b))).toBe('bad-checksum');
    }
  });

  it('refuses, even sealed, a TLV that overruns the data area, a duplicate tag and a tag wider than u8', () => {
    const over = talosBlock([[6, Buffer.from('A')]]);
    over.writeUInt32BE(ADV_DATA_LENGTH - 7, 8); // one byte more than is left after the header
    expect(() => decodeAdv(resealTalos(over))).toThrow(/tag 0x06 at 0x4: 262097 bytes claimed, 262096 left/);
    const dup = talosBlock([
      [6, Buffer.from('A')],
      [6, Buffer.from('B')],
    ]);
    expect(codeOf(() => decodeAdv(dup))).toBe('duplicate-tag');
    const wide = talosBlock([[0x106, Buffer.from('A')]]);
    expect(codeOf(() => decodeAdv(wide))).toBe('wide-tag');
  });

  it('never fails with anything but a MetaError on sealed garbage', () => {
    const r = seeded(7);
    for (let round = 0; round < 200; round++) {
      const b = talosBlock([]);
      // small tags and sizes, so walks go deep instead of overrunning at once
      for (let at = 4; at < 4 + 64 * 8; at += 4)
        b.writeUInt32BE(r.int(3) === 0 ? r.int(2 ** 32) : r.int(300), at);
      resealTalos(b);
      try {
        decodeAdv(b);
      } catch (e) {
        expect(isMetaDamage(e)).toBe(true);
      }
    }
  });
});

describe('Talos ADV capacity', () => {
  it('fills the data area exactly, with no room left for an end tag', () => {
    const value = Buffer.alloc(ADV_DATA_LENGTH - 8, 0x61);
    const back = decodeAdv(encodeAdv(new Map([[10, value]])));
    expect([...back.keys()]).toEqual([10]);
    expect(back.get(10)!.equals(value)).toBe(true);
  });

  it('names the tag that does not fit and the sizes', () => {
    const one = new Map([[10, Buffer.alloc(ADV_DATA_LENGTH - 7)]]);
    expect(() => encodeAdv(one)).toThrow(
      /tag 0x0a: 262097 bytes \(\+8 header\) do not fit, 262104 of 262104 bytes left/,
    );
    const two = new Map([
      [6, Buffer.alloc(200_000)],
      [12, Buffer.alloc(70_000)],
    ]);
    try {
      encodeAdv(two);
      expect.unreachable();
    } catch (e) {
      expect(isMetaError(e, 'too-large')).toBe(true);
      expect((e as Error).message).toMatch(/tag 0x0c: 70000 bytes .* 62096 of 262104 bytes left/);
    }
  });

  it('refuses tags the format cannot hold', () => {
    expect(codeOf(() => encodeAdv(new Map([[0, Buffer.from('x')]])))).toBe('bad-tag');
    expect(codeOf(() => encodeAdv(new Map([[256, Buffer.from('x')]])))).toBe('bad-tag');
  });
});
