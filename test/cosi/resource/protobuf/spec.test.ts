import protobuf from 'protobufjs';
import { describe, expect, it } from 'vitest';
import type { ProtoSchema } from '../../../../src/cosi/resource/proto-schema.js';
import { ProtoError } from '../../../../src/cosi/resource/protobuf/errors.js';
import { decodeSpec, encodeSpec, zeroSpec } from '../../../../src/cosi/resource/protobuf/spec.js';

// An independent implementation to check bytes against: protobufjs, fed the equivalent .proto text.
// protobufjs leaves proto3 repeated scalars unpacked unless told, so `packed` is spelled out here.
const PROTO = `
syntax = "proto3";
package test;
message Time { int64 seconds = 1; int32 nanos = 2; }
message Inner { string name = 1; int32 n = 2; }
enum Color { RED = 0; GREEN = 1; BLUE = 2; }
message All {
  string s = 1; bytes b = 2; bool flag = 3;
  int32 i32 = 4; int64 i64 = 5; uint32 u32 = 6; uint64 u64 = 7;
  sint32 s32 = 8; sint64 s64 = 9; fixed32 f32 = 10; fixed64 f64 = 11;
  sfixed32 sf32 = 12; sfixed64 sf64 = 13; float fl = 14; double db = 15;
  Color color = 16;
  repeated int32 ints = 17 [packed = true]; repeated string strs = 18; repeated double dbls = 19 [packed = true];
  repeated bool bools = 20 [packed = true]; repeated sint64 zz = 21 [packed = true];
  Inner inner = 22; repeated Inner inners = 23;
  map<string, string> labels = 24; map<int32, Inner> by_id = 25; map<bool, int64> flags = 26;
  Time at = 27; Time took = 28; repeated Time times = 29;
  repeated uint64 big = 30 [packed = true];
}
message Unpacked { repeated int32 ints = 17 [packed = false]; repeated bool bools = 20 [packed = false]; }
message Wider {
  string s = 1;
  Inner inner = 22;
  string extra_text = 40;
  Inner extra_msg = 41;
  fixed64 extra_fixed = 42;
  repeated sint32 extra_list = 43;
}
message Mismatch { string i32 = 4; int32 s = 1; }
`;
const root = protobuf.parse(PROTO, { keepCase: true }).root.resolveAll();
const pj = (type: string, obj: Record<string, unknown>) => {
  const t = root.lookupType(`test.${type}`);
  return t.encode(t.fromObject(obj)).finish();
};

const inner: ProtoSchema = { name: { no: 1, kind: 'string' }, n: { no: 2, kind: 'int32' } };
const ALL: ProtoSchema = {
  s: { no: 1, kind: 'string' },
  b: { no: 2, kind: 'bytes' },
  flag: { no: 3, kind: 'bool' },
  i32: { no: 4, kind: 'int32' },
  i64: { no: 5, kind: 'int64' },
  u32: { no: 6, kind: 'uint32' },
  u64: { no: 7, kind: 'uint64' },
  s32: { no: 8, kind: 'sint32' },
  s64: { no: 9, kind: 'sint64' },
  f32: { no: 10, kind: 'fixed32' },
  f64: { no: 11, kind: 'fixed64' },
  sf32: { no: 12, kind: 'sfixed32' },
  sf64: { no: 13, kind: 'sfixed64' },
  fl: { no: 14, kind: 'float' },
  db: { no: 15, kind: 'double' },
  color: { no: 16, kind: 'enum' },
  ints: { no: 17, kind: 'int32', repeated: true },
  strs: { no: 18, kind: 'string', repeated: true },
  dbls: { no: 19, kind: 'double', repeated: true },
  bools: { no: 20, kind: 'bool', repeated: true },
  zz: { no: 21, kind: 'sint64', repeated: true },
  inner: { no: 22, kind: 'message', schema: inner },
  inners: { no: 23, kind: 'message', schema: inner, repeated: true },
  labels: { no: 24, kind: 'map', key: 'string', value: 'string' },
  byId: { no: 25, kind: 'map', key: 'int32', value: { schema: inner } },
  flags: { no: 26, kind: 'map', key: 'bool', value: 'int64' },
  at: { no: 27, kind: 'timestamp' },
  took: { no: 28, kind: 'duration' },
  times: { no: 29, kind: 'timestamp', repeated: true },
  big: { no: 30, kind: 'uint64', repeated: true },
};

// declared out of field order on purpose: the encoder writes by field number
const spec = {
  big: [0, 2 ** 53 - 1, 2n ** 64n - 1n],
  s: 'héllo',
  b: new Uint8Array([0, 1, 255]),
  flag: true,
  i32: -5,
  i64: -(2n ** 62n),
  u32: 2 ** 32 - 1,
  u64: 2n ** 63n,
  s32: -123456,
  s64: -(2 ** 40),
  f32: 0xdeadbeef,
  f64: 2n ** 64n - 2n,
  sf32: -7,
  sf64: -(2n ** 63n),
  fl: 1.5,
  db: -1e-300,
  color: 2,
  ints: [0, -1, 300, 2 ** 31 - 1],
  strs: ['', 'a', '日本'],
  dbls: [0, -0.5, 1e300],
  bools: [true, false, true],
  zz: [-1, 0, 1n << 62n],
  inner: { name: 'in', n: 1 },
  inners: [
    { name: 'a', n: 0 },
    { name: '', n: -2 },
  ],
  labels: { b: '2', a: '1', z: '' },
  byId: { 10: { name: 'ten', n: 10 }, 2: { name: 'two', n: 2 } },
  flags: { false: 0, true: -1 },
  at: 1624476149123,
  took: -1500,
  times: [0, 1000.5],
};

// The same message for protobufjs: longs as strings, maps in key order, timestamps split, and no
// default-valued properties (protobufjs writes whatever is set). Bool map keys stay out: protobufjs
// reads the object key "false" as true.
const { flags: _flags, ...pjBase } = spec;
const pjSpec = {
  ...pjBase,
  big: ['0', String(2 ** 53 - 1), '18446744073709551615'],
  i64: String(-(2n ** 62n)),
  u64: String(2n ** 63n),
  s64: String(-(2 ** 40)),
  f64: String(2n ** 64n - 2n),
  sf64: String(-(2n ** 63n)),
  zz: ['-1', '0', String(1n << 62n)],
  labels: { a: '1', b: '2', z: '' },
  inners: [{ name: 'a' }, { n: -2 }],
  by_id: spec.byId,
  at: { seconds: 1624476149, nanos: 123000000 },
  took: { seconds: -1, nanos: -500000000 },
  times: [{}, { seconds: 1, nanos: 500000 }],
};

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');

describe('encodeSpec', () => {
  it('writes the same bytes as protobufjs for every field kind', () => {
    expect(hex(encodeSpec({ ...spec, flags: undefined }, ALL))).toBe(hex(pj('All', pjSpec)));
  });

  it('writes bool map keys false before true, key and value always present', () => {
    // field 26 entries: {1: false, 2: 0} and {1: true, 2: -1}
    expect(hex(encodeSpec({ flags: { true: -1, false: 0 } }, ALL))).toBe(
      'd2010408001000d2010d080110ffffffffffffffffff01',
    );
  });

  it('omits proto3 defaults but keeps zeros inside repeated fields and -0 doubles', () => {
    expect(encodeSpec({ s: '', flag: false, i32: 0, i64: 0n, b: new Uint8Array(0), ints: [] }, ALL)).toEqual(
      new Uint8Array(0),
    );
    expect(hex(encodeSpec({ ints: [0] }, ALL))).toBe('8a010100');
    expect(hex(encodeSpec({ db: -0 }, ALL))).toBe('790000000000000080');
  });

  it('writes a set nested message even when it is empty, and skips null and undefined', () => {
    expect(hex(encodeSpec({ inner: {} }, ALL))).toBe('b20100');
    expect(hex(encodeSpec({ inner: null, at: undefined }, ALL))).toBe('');
    expect(hex(encodeSpec({ at: 0 }, ALL))).toBe('da0100');
  });

  it('ignores properties outside the schema', () => {
    expect(encodeSpec({ notInSchema: 'x', s: 'a' }, ALL)).toEqual(encodeSpec({ s: 'a' }, ALL));
  });

  it.each<[string, Record<string, unknown>]>([
    ['spec.s: expected a string, got number 5', { s: 5 }],
    [
      'spec.inners[1].n: expected a 32-bit integer, got number 2147483648',
      { inners: [{ name: 'ok' }, { n: 2 ** 31 }] },
    ],
    ['spec.u32: expected an unsigned 32-bit integer, got number -1', { u32: -1 }],
    ['spec.u64: expected an unsigned 64-bit integer (number or bigint), got bigint -1', { u64: -1n }],
    [
      'spec.i64: expected a 64-bit integer (number or bigint), got bigint 9223372036854775808',
      { i64: 2n ** 63n },
    ],
    ['spec.ints: expected an array, got the string "nope"', { ints: 'nope' }],
    ['spec.strs[1]: expected a value, got null', { strs: ['a', null] }],
    ['spec.byId["x"]: expected an integer map key, got the string "x"', { byId: { x: {} } }],
    [
      'spec.flags["yes"]: expected a bool map key ("true" or "false"), got the string "yes"',
      { flags: { yes: 1 } },
    ],
    ['spec.inner: expected an object, got an array', { inner: [] }],
    ['spec.at: expected milliseconds as a finite number, got the string "now"', { at: 'now' }],
  ])('rejects a bad value: %s', (message, value) => {
    expect(() => encodeSpec(value, ALL)).toThrow(new ProtoError('invalid-value', message));
  });

  it('rejects unusable schemas', () => {
    const dup: ProtoSchema = { a: { no: 1, kind: 'string' }, b: { no: 1, kind: 'int32' } };
    expect(() => encodeSpec({}, dup)).toThrow('schema field "b": field number 1 is already used by a');
    expect(() => encodeSpec({}, { a: { no: 19000, kind: 'string' } })).toThrow(
      'field number 19000 is out of range',
    );
    expect(() => encodeSpec({}, { m: { no: 1, kind: 'map', key: 'double', value: 'string' } })).toThrow(
      'double cannot be a map key',
    );
  });
});

describe('decodeSpec', () => {
  it('decodes protobufjs output to the original values', () => {
    const got = decodeSpec(pj('All', pjSpec), ALL);
    expect(got).toEqual({ ...spec, flags: {} });
  });

  it('round-trips its own encoding', () => {
    expect(decodeSpec(encodeSpec(spec, ALL), ALL)).toEqual(spec);
  });

  it('fills every schema field with its zero value when absent', () => {
    const zero = decodeSpec(new Uint8Array(0), ALL);
    expect(zero).toEqual(zeroSpec(ALL));
    expect(zero).toMatchObject({
      s: '',
      b: new Uint8Array(0),
      flag: false,
      i64: 0,
      color: 0,
      ints: [],
      inner: { name: '', n: 0 },
      inners: [],
      labels: {},
      at: 0,
      took: 0,
    });
  });

  it('reads repeated scalars packed or not', () => {
    const unpacked = pj('Unpacked', { ints: [1, -1, 300], bools: [true, false] });
    expect(hex(unpacked)).toMatch(/^8801/); // field 17, wire type 0: one key per element
    expect(decodeSpec(unpacked, ALL)).toMatchObject({ ints: [1, -1, 300], bools: [true, false] });
  });

  it('skips unknown fields of every wire type', () => {
    const wider = pj('Wider', {
      s: 'kept',
      inner: { name: 'kept too' },
      extra_text: 'dropped',
      extra_msg: { name: 'dropped' },
      extra_fixed: '5',
      extra_list: [-1, 2],
    });
    expect(decodeSpec(wider, ALL)).toMatchObject({ s: 'kept', inner: { name: 'kept too', n: 0 } });
  });

  it('skips a known field that arrives in another wire type, as protobuf-go does', () => {
    const got = decodeSpec(pj('Mismatch', { i32: 'text', s: 7 }), ALL);
    expect(got).toMatchObject({ s: '', i32: 0 });
  });

  it('merges repeated occurrences of a singular message and keeps the last scalar', () => {
    const bytes = Buffer.concat([
      pj('All', { s: 'first', inner: { name: 'x' } }),
      pj('All', { s: 'second', inner: { n: 3 } }),
    ]);
    expect(decodeSpec(bytes, ALL)).toMatchObject({ s: 'second', inner: { name: 'x', n: 3 } });
  });

  it('keeps a "__proto__" map key as an ordinary entry', () => {
    const got = decodeSpec(encodeSpec({ labels: JSON.parse('{"__proto__": "x"}') }, ALL), ALL);
    expect(Object.keys(got.labels as object)).toEqual(['__proto__']);
    expect(Object.getPrototypeOf(got.labels)).toBe(Object.prototype);
  });

  it('reports malformed input', () => {
    expect(() => decodeSpec(new Uint8Array([0x0a, 0x05, 0x61]), ALL)).toThrow(
      /length 5 past the end at offset 1/,
    );
  });
});
