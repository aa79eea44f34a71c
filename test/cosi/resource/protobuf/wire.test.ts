import protobuf from 'protobufjs';
import { describe, expect, it } from 'vitest';
import { ProtoError } from '../../../../src/cosi/resource/protobuf/errors.js';
import {
  ProtoReader,
  ProtoWriter,
  varintSize,
  WireType,
} from '../../../../src/cosi/resource/protobuf/wire.js';

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');
const bytes = (h: string) => new Uint8Array(Buffer.from(h.replaceAll(' ', ''), 'hex'));
const write = (f: (w: ProtoWriter) => void) => {
  const w = new ProtoWriter(4);
  f(w);
  return w.finish();
};

describe('varints', () => {
  it.each([
    [0, '00'],
    [1, '01'],
    [127, '7f'],
    [128, '8001'],
    [300, 'ac02'],
    [2 ** 31 - 1, 'ffffffff07'],
    [2 ** 32 - 1, 'ffffffff0f'],
  ])('uint32 %d is %s and reads back', (v, h) => {
    const b = write((w) => w.uint32(v));
    expect(hex(b)).toBe(h);
    expect(varintSize(v)).toBe(b.length);
    expect(new ProtoReader(b).uint32()).toBe(v);
  });

  it('writes a negative int32 as a ten-byte varint and reads it back', () => {
    const b = write((w) => w.int32(-1));
    expect(hex(b)).toBe('ffffffffffffffffff01');
    expect(new ProtoReader(b).int32()).toBe(-1);
    expect(hex(write((w) => w.int32(-(2 ** 31))))).toBe('80808080f8ffffffff01');
  });

  it.each<[number | bigint, string]>([
    [2 ** 32, '8080808010'],
    [2 ** 53 - 1, 'ffffffffffffff0f'],
    [-1, 'ffffffffffffffffff01'],
    [(1n << 63n) - 1n, 'ffffffffffffffff7f'],
    [-(1n << 63n), '80808080808080808001'],
  ])('int64 %s is %s', (v, h) => {
    const b = write((w) => w.int64(v));
    expect(hex(b)).toBe(h);
    expect(new ProtoReader(b).int64()).toEqual(v);
  });

  it('reads 64-bit values as numbers while safe and bigints beyond', () => {
    expect(new ProtoReader(write((w) => w.uint64(2 ** 53 - 1))).uint64()).toBe(2 ** 53 - 1);
    expect(new ProtoReader(write((w) => w.uint64(2n ** 53n))).uint64()).toBe(2n ** 53n);
    expect(new ProtoReader(write((w) => w.uint64(2n ** 64n - 1n))).uint64()).toBe(2n ** 64n - 1n);
    expect(new ProtoReader(write((w) => w.int64(-(2 ** 53) + 1))).int64()).toBe(-(2 ** 53) + 1);
    expect(new ProtoReader(write((w) => w.int64(-(2n ** 53n)))).int64()).toBe(-(2n ** 53n));
  });

  it.each<[number, string]>([
    [0, '00'],
    [-1, '01'],
    [1, '02'],
    [-2, '03'],
    [2 ** 31 - 1, 'feffffff0f'],
    [-(2 ** 31), 'ffffffff0f'],
  ])('sint32 %d zigzags to %s', (v, h) => {
    const b = write((w) => w.sint32(v));
    expect(hex(b)).toBe(h);
    expect(new ProtoReader(b).sint32()).toBe(v);
  });

  it.each<number | bigint>([-1, 2 ** 40, -(2 ** 52) - 5, (1n << 63n) - 1n, -(1n << 63n)])(
    'sint64 %s round-trips',
    (v) => {
      const b = write((w) => w.sint64(v));
      expect(new ProtoReader(b).sint64()).toEqual(v);
    },
  );

  it('matches protobufjs for sint64 extremes', () => {
    const pj = (v: string) => hex(protobuf.Writer.create().sint64(v).finish());
    expect(hex(write((w) => w.sint64((1n << 63n) - 1n)))).toBe(pj('9223372036854775807'));
    expect(hex(write((w) => w.sint64(-(1n << 63n))))).toBe(pj('-9223372036854775808'));
    expect(hex(write((w) => w.sint64(-(2 ** 52) - 5)))).toBe(pj(String(-(2 ** 52) - 5)));
  });
});

describe('fixed-width values', () => {
  it('writes little-endian fixed32/64, floats and doubles', () => {
    const b = write((w) =>
      w
        .fixed32(0xdeadbeef)
        .sfixed32(-2)
        .fixed64(2n ** 64n - 1n)
        .sfixed64(-3)
        .float(1.5)
        .double(-0.25)
        .bool(true),
    );
    expect(hex(b)).toBe(
      'efbeaddefeffffffffffffffffffffff' + 'fdffffffffffffff' + '0000c03f' + '000000000000d0bf' + '01',
    );
    const r = new ProtoReader(b);
    expect([r.fixed32(), r.sfixed32(), r.fixed64(), r.sfixed64(), r.float(), r.double(), r.bool()]).toEqual([
      0xdeadbeef,
      -2,
      2n ** 64n - 1n,
      -3,
      1.5,
      -0.25,
      true,
    ]);
    expect(r.done()).toBe(true);
  });
});

describe('length-delimited values', () => {
  it.each([
    '',
    'a',
    'héllo wörld',
    '日本語',
    '😀 surrogate pairs',
    'x'.repeat(42),
    'y'.repeat(43),
    'z'.repeat(300),
  ])('string %j matches protobufjs', (s) => {
    const b = write((w) => w.string(s));
    expect(hex(b)).toBe(hex(protobuf.Writer.create().string(s).finish()));
    expect(new ProtoReader(b).string()).toBe(s);
  });

  it('replaces a lone surrogate with U+FFFD, as TextEncoder does', () => {
    expect(new ProtoReader(write((w) => w.string('a\ud800b'))).string()).toBe('a\ufffdb');
  });

  it('patches nested lengths that outgrow their reserved byte', () => {
    const b = write((w) => {
      w.tag(1, WireType.Bytes);
      const outer = w.fork();
      w.tag(2, WireType.Bytes);
      const inner = w.fork();
      w.bytes(new Uint8Array(200).fill(7));
      w.join(inner);
      w.tag(3, WireType.Varint).uint32(5);
      w.join(outer);
    });
    const r = new ProtoReader(b);
    expect(r.tag()).toBe((1 << 3) | 2);
    const outer = r.sub();
    expect(outer.tag()).toBe((2 << 3) | 2);
    const inner = outer.sub();
    expect(inner.bytes()).toEqual(new Uint8Array(200).fill(7));
    expect(outer.tag()).toBe((3 << 3) | 0);
    expect(outer.uint32()).toBe(5);
    expect(outer.done() && r.done()).toBe(true);
  });

  it('copies bytes out of the input buffer, Buffers included', () => {
    const src = write((w) => w.bytes(new Uint8Array([1, 2, 3])));
    const got = new ProtoReader(src).bytes();
    src[1] = 9;
    expect([...got]).toEqual([1, 2, 3]);
    const buf = Buffer.from([3, 4, 5, 6]);
    const fromBuffer = new ProtoReader(buf).bytes();
    buf[1] = 0;
    expect(Buffer.isBuffer(fromBuffer)).toBe(false);
    expect([...fromBuffer]).toEqual([4, 5, 6]);
  });
});

describe('skipping unknown fields', () => {
  it('skips every wire type, groups included', () => {
    const b = write((w) => {
      w.tag(1, WireType.Varint).int64(-1);
      w.tag(2, WireType.Fixed64).fixed64(1);
      w.tag(3, WireType.Bytes).string('skip me');
      w.tag(4, WireType.StartGroup);
      w.tag(5, WireType.Varint).uint32(1);
      w.tag(6, WireType.StartGroup).tag(6, WireType.EndGroup);
      w.tag(4, WireType.EndGroup);
      w.tag(7, WireType.Fixed32).fixed32(1);
      w.tag(8, WireType.Varint).uint32(42);
    });
    const r = new ProtoReader(b);
    for (let i = 0; i < 5; i++) {
      const t = r.tag();
      r.skip(t & 7, t >>> 3);
    }
    expect(r.tag()).toBe(8 << 3);
    expect(r.uint32()).toBe(42);
  });
});

describe('malformed input', () => {
  const fails = (h: string, f: (r: ProtoReader) => unknown, message: RegExp) => {
    const err = (() => {
      try {
        f(new ProtoReader(bytes(h)));
      } catch (e) {
        return e;
      }
      return undefined;
    })();
    expect(err).toBeInstanceOf(ProtoError);
    expect((err as ProtoError).code).toBe('malformed');
    expect((err as ProtoError).message).toMatch(message);
  };

  it('names what is wrong and where', () => {
    fails('80', (r) => r.uint32(), /truncated varint at offset 0/);
    fails('ffffffffffffffffffff01', (r) => r.uint64(), /longer than ten bytes/);
    fails('ffffffffffffffffff7f', (r) => r.uint64(), /overflows 64 bits/);
    fails('0a05616263', (r) => [r.tag(), r.string()], /length 5 past the end at offset 1/);
    fails('0f', (r) => r.tag(), /invalid wire type 7 at offset 0/);
    fails('00', (r) => r.tag(), /field number 0/);
    fails('0102', (r) => r.fixed32(), /4-byte value past the end/);
    fails('02c328', (r) => r.string(), /invalid UTF-8 in string at offset 0/);
    fails('0b', (r) => r.skip(r.tag() & 7, 1), /unterminated group/);
    fails('0b14', (r) => r.skip(r.tag() & 7, 1), /end of group 2 inside group 1/);
    fails('0c', (r) => r.skip(r.tag() & 7), /unexpected wire type 4/);
  });
});
