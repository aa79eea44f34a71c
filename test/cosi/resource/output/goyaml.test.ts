import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { goJSON } from '../../../../src/cosi/resource/output/gojson.js';
import {
  emitYAML,
  formatGoG,
  GoTime,
  goValue,
  isGoTimestamp,
  nodeFromValue,
  parseYAML,
  resolvePlain,
  sortGoKeys,
  stringNode,
  yMap,
  yNodeScalar,
  yScalar,
} from '../../../../src/cosi/resource/output/goyaml/index.js';

// Expected outputs in the fixtures were produced by gopkg.in/yaml.v3 v3.0.1 and encoding/json.
const fixture = <T>(name: string): T =>
  JSON.parse(readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8'));

interface StringCase {
  input: string;
  value: string;
  key: string;
  node: string;
  seq: string;
  root: string;
}

describe('emitYAML matches yaml.v3 for tricky strings', () => {
  const cases = fixture<StringCase[]>('yaml-v3-strings.json');
  it.each(cases.map((c) => [c.input, c] as const))('%j', (_, c) => {
    // as a Go map value, a Go map key, a hand-built yaml.Node, inside nested lists, and as the whole document
    expect(emitYAML(nodeFromValue({ k: c.input }))).toBe(c.value);
    expect(emitYAML(yMap([[stringNode(c.input), yScalar('1')]]))).toBe(c.key);
    expect(emitYAML(yMap([[yNodeScalar('k'), yNodeScalar(c.input)]]))).toBe(c.node);
    expect(emitYAML(nodeFromValue({ k: { l: [c.input, [c.input]] } }))).toBe(c.seq);
    expect(emitYAML(nodeFromValue(c.input))).toBe(c.root);
  });
});

interface DocumentCase {
  input: string;
  reemit: string;
  json: string;
  err: string;
}

describe('parsed documents', () => {
  const cases = fixture<DocumentCase[]>('yaml-v3-documents.json');
  it.each(cases.map((c) => [c.input, c] as const))('re-emit and re-type %j as Go does', (_, c) => {
    const n = parseYAML(c.input);
    expect(emitYAML(n!)).toBe(c.reemit);
    const json = () => `${goJSON(goValue(n, { ints: 'bigint', keys: 'strict', times: 'go' }), '    ')}\n`;
    if (c.err) expect(json).toThrow(c.err);
    else expect(json()).toBe(c.json);
  });

  it('expands aliases (yaml.v3 would keep the anchor)', () => {
    expect(emitYAML(parseYAML('a: &x {k: 1}\nb: *x\n')!)).toBe('a: {k: 1}\nb: {k: 1}\n');
  });

  it('reads an empty document as null and reports syntax errors with a position', () => {
    expect(goValue(parseYAML(''))).toBeNull();
    expect(() => parseYAML('a: [1\nb: 2')).toThrow(/invalid YAML at \d+:\d+/);
  });
});

describe('resolvePlain', () => {
  it.each<[string, string, unknown]>([
    ['', '!!null', null],
    ['~', '!!null', null],
    ['True', '!!bool', true],
    ['yes', '!!str', 'yes'],
    ['0x1F', '!!int', 31n],
    ['0o17', '!!int', 15n],
    ['017', '!!int', 15n],
    ['09', '!!float', 9],
    ['1_000', '!!int', 1000n],
    ['+5', '!!int', 5n],
    ['18446744073709551615', '!!int', 18446744073709551615n],
    ['18446744073709551616', '!!float', 2 ** 64],
    ['-9223372036854775809', '!!float', -(2 ** 63)],
    ['1e400', '!!str', '1e400'],
    ['.5', '!!float', 0.5],
    ['-.inf', '!!float', Number.NEGATIVE_INFINITY],
    ['2021-06-23', '!!timestamp', '2021-06-23'],
    ['2021-02-30', '!!str', '2021-02-30'],
    ['<<', '!!str', '<<'],
  ])('%j is %s', (s, tag, value) => {
    expect(resolvePlain(s)).toEqual({ tag, value });
  });

  it('accepts the timestamp layouts yaml.v3 tries', () => {
    expect(isGoTimestamp('2001-12-14t21:59:43.10-05:00')).toBe(true);
    expect(isGoTimestamp('2001-12-14 21:59:43.10')).toBe(true);
    expect(isGoTimestamp('2001-12-14T21:59:43')).toBe(false);
    expect(isGoTimestamp('2001-12-14 21:59:43 -5')).toBe(false);
    expect(isGoTimestamp('2001-13-14')).toBe(false);
  });
});

describe('Go value formatting', () => {
  it('formats floats as strconv.FormatFloat(v, g, -1, 64)', () => {
    const floats = [
      1.5,
      100000,
      1e6,
      123456,
      1234567,
      0.0001,
      0.00001,
      1.5e-7,
      1e21,
      1e20,
      3,
      -2.5e30,
      1 / 3,
      2.5e-5,
    ];
    expect(floats.map(formatGoG)).toEqual([
      '1.5',
      '100000',
      '1e+06',
      '123456',
      '1.234567e+06',
      '0.0001',
      '1e-05',
      '1.5e-07',
      '1e+21',
      '1e+20',
      '3',
      '-2.5e+30',
      '0.3333333333333333',
      '2.5e-05',
    ]);
    expect([Number.NaN, Number.POSITIVE_INFINITY, -0].map(formatGoG)).toEqual(['NaN', '+Inf', '-0']);
  });

  it('sorts Go map keys as yaml.v3 does', () => {
    const keys = [
      'a10',
      'a9',
      'a1',
      'a01',
      'a001',
      'b',
      'B',
      '_x',
      '1',
      '10',
      '9',
      'é',
      'Z',
      'a',
      'ab',
      'a-b',
      'a_b',
    ];
    expect(sortGoKeys(keys)).toEqual([
      '_x',
      '1',
      '9',
      '10',
      'B',
      'Z',
      'a',
      'a-b',
      'a_b',
      'a1',
      'a01',
      'a001',
      'a9',
      'a10',
      'ab',
      'b',
      'é',
    ]);
    expect(sortGoKeys<string | number | boolean>([3, 1, 'a', 2.5, true, false, '10', -1])).toEqual([
      -1,
      false,
      true,
      1,
      2.5,
      3,
      '10',
      'a',
    ]);
  });

  it('decodes integers as bigints or numbers and timestamps as time values or text', () => {
    const n = parseYAML('a: 1\nb: 2021-06-23\nc: 9007199254740993\n');
    expect(goValue(n, { ints: 'bigint', times: 'go' })).toEqual({
      a: 1n,
      b: new GoTime('2021-06-23T00:00:00Z'),
      c: 9007199254740993n,
    });
    expect(goValue(n, { ints: 'number' })).toEqual({ a: 1, b: '2021-06-23', c: 9007199254740993n });
  });
});
