import { describe, expect, it } from 'vitest';
import {
  labelEqual,
  labelExists,
  labelIn,
  labelLT,
  labelLTE,
  labelLTENumeric,
  labelLTNumeric,
  labelQuery,
  matchQueries,
  parseQuantity,
} from '../../../src/cosi/resource/label-query.js';
import { Labels } from '../../../src/cosi/resource/labels.js';

const labels = (m: Record<string, string>) => new Labels(m);

describe('label terms', () => {
  it('exists on empty labels is false, inverted true', () => {
    expect(labels({}).matches(labelExists('a'))).toBe(false);
    expect(labels({}).matches(labelExists('a', true))).toBe(true);
  });

  it('exists and equal honour inversion', () => {
    const l = labels({ a: '1' });
    expect(l.matches(labelExists('a'))).toBe(true);
    expect(l.matches(labelExists('a', true))).toBe(false);
    expect(l.matches(labelEqual('a', '1'))).toBe(true);
    expect(l.matches(labelEqual('a', '2'))).toBe(false);
    expect(l.matches(labelEqual('a', '2', true))).toBe(true);
  });

  it('a missing key is false for equal/in, which inversion turns true', () => {
    const l = labels({ b: '1' });
    expect(l.matches(labelEqual('a', '1'))).toBe(false);
    expect(l.matches(labelEqual('a', '1', true))).toBe(true);
    expect(l.matches(labelIn('a', ['1']))).toBe(false);
    expect(l.matches(labelIn('a', ['1'], true))).toBe(true);
  });

  it('a missing key is false for comparisons regardless of inversion', () => {
    const l = labels({ b: '1' });
    for (const t of [labelLT, labelLTE, labelLTNumeric, labelLTENumeric]) {
      expect(l.matches(t('a', '5'))).toBe(false);
      expect(l.matches(t('a', '5', true))).toBe(false);
    }
  });

  it('an empty value list is false, inversion applies', () => {
    const l = labels({ a: '1' });
    expect(l.matches(labelIn('a', []))).toBe(false);
    expect(l.matches(labelIn('a', [], true))).toBe(true);
  });

  it('in checks membership', () => {
    expect(labels({ a: 'y' }).matches(labelIn('a', ['x', 'y']))).toBe(true);
    expect(labels({ a: 'z' }).matches(labelIn('a', ['x', 'y']))).toBe(false);
  });

  it('lt and lte compare strings lexicographically', () => {
    expect(labels({ a: '10' }).matches(labelLT('a', '9'))).toBe(true);
    expect(labels({ a: 'b' }).matches(labelLTE('a', 'b'))).toBe(true);
    expect(labels({ a: 'c' }).matches(labelLTE('a', 'b'))).toBe(false);
    expect(labels({ a: 'c' }).matches(labelLTE('a', 'b', true))).toBe(true);
  });

  it('numeric comparisons understand units', () => {
    expect(labels({ a: '10' }).matches(labelLTNumeric('a', '9'))).toBe(false);
    expect(labels({ a: '1Ki' }).matches(labelLTENumeric('a', '1024'))).toBe(true);
    expect(labels({ a: '1Ki' }).matches(labelLTNumeric('a', '1024'))).toBe(false);
    expect(labels({ a: '1M' }).matches(labelLTNumeric('a', '1Mi'))).toBe(true);
    expect(labels({ a: '-5' }).matches(labelLTNumeric('a', '0'))).toBe(true);
    expect(labels({ a: '3g' }).matches(labelLTNumeric('a', '3001m'))).toBe(true);
  });

  it('an unparsable number is false regardless of inversion', () => {
    expect(labels({ a: 'x' }).matches(labelLTNumeric('a', '1'))).toBe(false);
    expect(labels({ a: 'x' }).matches(labelLTNumeric('a', '1', true))).toBe(false);
    expect(labels({ a: '1' }).matches(labelLTENumeric('a', '1Q', true))).toBe(false);
  });
});

describe('queries', () => {
  it('AND inside a query, OR across queries, nothing matches everything', () => {
    const l = labels({ a: '1', b: '2' });
    expect(matchQueries(l, [])).toBe(true);
    expect(matchQueries(l, [labelQuery(labelEqual('a', '1'), labelEqual('b', '3'))])).toBe(false);
    expect(
      matchQueries(l, [labelQuery(labelEqual('a', '1'), labelEqual('b', '3')), labelQuery(labelExists('b'))]),
    ).toBe(true);
    expect(matchQueries(l, [labelQuery()])).toBe(true);
  });
});

describe('parseQuantity', () => {
  it.each([
    ['0', 0n],
    ['12', 12n],
    ['-3', -3n],
    ['2k', 2000n],
    ['2K', 2000n],
    ['1mi', 1048576n],
    ['1p', 10n ** 15n],
    ['1Pi', 1n << 50n],
    ['10kg', 10_000n],
    [' 1 k ', 1000n],
    ['2Mib', 2n << 20n],
  ])('%s = %s', (s, v) => expect(parseQuantity(s)).toBe(v));

  it.each(['', 'k', '-', '1-2', '1.5', '1x', '99999999999999999999'])('rejects %j', (s) =>
    expect(parseQuantity(s)).toBeUndefined(),
  );
});
