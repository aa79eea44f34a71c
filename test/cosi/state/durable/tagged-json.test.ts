import { describe, expect, it } from 'vitest';
import { equalData } from '../../../../src/cosi/resource/data.js';
import { isDurableStoreError } from '../../../../src/cosi/state/durable/errors.js';
import {
  fromTaggedJSON,
  type JSONValue,
  TaggedJSONError,
  toTaggedJSON,
} from '../../../../src/cosi/state/durable/tagged-json.js';

/** through JSON text, as the store does */
const roundTrip = (v: unknown): unknown => fromTaggedJSON(JSON.parse(JSON.stringify(toTaggedJSON(v))));

describe('tagged JSON', () => {
  it('keeps plain JSON data as it is', () => {
    const v = { a: 1, b: 'x', c: [true, null, { d: 2.5 }], e: {} };
    expect(toTaggedJSON(v)).toEqual(v);
    expect(roundTrip(v)).toStrictEqual(v);
  });

  it('round-trips bytes, maps, dates, bigints and odd numbers', () => {
    const v = {
      bytes: new Uint8Array([0, 1, 254, 255]),
      empty: new Uint8Array(),
      buffer: Buffer.from('hi'),
      map: new Map<unknown, unknown>([
        ['k', new Uint8Array([7])],
        [2, { nested: new Map([[3n, 'big key']]) }],
      ]),
      date: new Date(1_700_000_000_123),
      invalidDate: new Date(Number.NaN),
      big: 2n ** 70n,
      negBig: -5n,
      nums: [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, -0, 0, 1e300, -1.5],
    };
    const back = roundTrip(v) as typeof v;
    // equalData compares dates by time, and NaN never equals itself; the invalid date is checked below.
    const { invalidDate, ...comparable } = back;
    const { invalidDate: _, ...expected } = v;
    expect(equalData(comparable, expected)).toBe(true);
    expect(invalidDate).toBeInstanceOf(Date);
    expect(back.bytes).toBeInstanceOf(Uint8Array);
    expect(back.buffer).toStrictEqual(new Uint8Array([104, 105]));
    expect(back.map).toBeInstanceOf(Map);
    expect([...back.map.keys()]).toEqual(['k', 2]);
    expect(back.date.getTime()).toBe(1_700_000_000_123);
    expect(Number.isNaN(invalidDate.getTime())).toBe(true);
    expect(back.big).toBe(2n ** 70n);
    expect(Object.is(back.nums[3], -0)).toBe(true);
    expect(Object.is(back.nums[4], 0)).toBe(true);
    expect(back.nums.slice(0, 3)).toEqual([Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY]);
  });

  it('tells a key holding undefined from an absent key', () => {
    const back = roundTrip({ present: undefined, list: [undefined, 1] }) as Record<string, unknown>;
    expect(Object.hasOwn(back, 'present')).toBe(true);
    expect(back.present).toBeUndefined();
    expect(Object.hasOwn(back, 'absent')).toBe(false);
    expect(back.list).toEqual([undefined, 1]);
    expect(roundTrip(undefined)).toBeUndefined();
  });

  it('does not mistake objects that use the tag key for tags', () => {
    const v = { $t: 'bytes', v: 'AAAA', inner: { $t: 'undef' } };
    expect(roundTrip(v)).toStrictEqual(v);
  });

  it('keeps a __proto__ key as data, without touching prototypes', () => {
    const v = JSON.parse('{"__proto__": {"polluted": true}, "x": 1}') as Record<string, unknown>;
    const back = roundTrip(v) as Record<string, unknown>;
    expect(Object.getPrototypeOf(back)).toBe(Object.prototype);
    expect(Object.keys(back)).toEqual(['__proto__', 'x']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('refuses values it could not restore, naming where they are', () => {
    const cases: [unknown, string][] = [
      [{ a: { b: new Set([1]) } }, 'spec.a.b'],
      [{ f: () => 1 }, 'spec.f'],
      [{ list: [1, Symbol('s')] }, 'spec.list[1]'],
      [{ floats: new Float64Array(2) }, 'spec.floats'],
      [{ inst: new (class Point {})() }, 'spec.inst'],
    ];
    for (const [v, path] of cases) {
      let err: unknown;
      try {
        toTaggedJSON(v);
      } catch (e) {
        err = e;
      }
      expect(isDurableStoreError(err), path).toBe(true);
      expect((err as Error & { code: string }).code).toBe('unencodable');
      expect((err as Error).message).toContain(path);
    }
  });

  it('rejects malformed tags', () => {
    const bad: JSONValue[] = [
      { $t: 'nope' },
      { $t: 'num', v: 'Banana' },
      { $t: 'big', v: '1.5' },
      { $t: 'bytes', v: 3 },
      { $t: 'map', v: [[1]] },
      { $t: 'obj', v: [] },
      { $t: 'date', v: 'yesterday' },
    ];
    for (const j of bad) expect(() => fromTaggedJSON(j), JSON.stringify(j)).toThrow(TaggedJSONError);
  });
});
