import { status } from '@grpc/grpc-js';
import { describe, expect, it } from 'vitest';
import { RequestError } from '../../../src/cosi/api/errors.js';
import {
  idQueryFromWire,
  idQueryToWire,
  labelQueriesFromWire,
  labelQueryToWire,
  MAX_ID_REGEXP_LENGTH,
} from '../../../src/cosi/api/queries.js';
import { idRegexpMatch } from '../../../src/cosi/resource/id-query.js';
import {
  labelEqual,
  labelExists,
  labelIn,
  labelLT,
  labelLTE,
  labelLTENumeric,
  labelLTNumeric,
  labelQuery,
} from '../../../src/cosi/resource/label-query.js';

const rejection = (fn: () => unknown): RequestError => {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(RequestError);
    return e as RequestError;
  }
  throw new Error('expected a RequestError');
};

describe('label queries on the wire', () => {
  it('round-trips every operator with its invert flag', () => {
    const q = labelQuery(
      labelExists('a'),
      labelEqual('b', 'x', true),
      labelIn('c', ['1', '2']),
      labelLT('d', 'm'),
      labelLTE('e', 'n', true),
      labelLTNumeric('f', '10Ki'),
      labelLTENumeric('g', '3'),
    );
    const wire = labelQueryToWire(q);
    expect(wire.terms?.map((t) => t.op)).toEqual([
      'EXISTS',
      'EQUAL',
      'IN',
      'LT',
      'LTE',
      'LT_NUMERIC',
      'LTE_NUMERIC',
    ]);
    expect(labelQueriesFromWire([wire])).toEqual([q]);
  });

  it('reads absent fields as their zero values', () => {
    expect(labelQueriesFromWire(undefined)).toEqual([]);
    expect(labelQueriesFromWire([{}])).toEqual([{ terms: [] }]);
    expect(labelQueriesFromWire([{ terms: [{ key: 'k' }] }])).toEqual([labelQuery(labelExists('k'))]);
  });

  it('maps the deprecated NOT_EXISTS to an inverted EXISTS, by name or number', () => {
    const want = [labelQuery(labelExists('k', true))];
    expect(labelQueriesFromWire([{ terms: [{ key: 'k', op: 'NOT_EXISTS' }] }])).toEqual(want);
    expect(labelQueriesFromWire([{ terms: [{ key: 'k', op: 2, invert: true }] }])).toEqual(want);
  });

  it('rejects unknown operators as UNIMPLEMENTED', () => {
    const e = rejection(() => labelQueriesFromWire([{ terms: [{ key: 'k', op: 99 }] }]));
    expect(e.code).toBe(status.UNIMPLEMENTED);
    expect(e.message).toBe('unsupported label query operator: 99');
  });

  it('rejects comparisons without a value as INVALID_ARGUMENT', () => {
    for (const op of ['EQUAL', 'LT', 'LTE', 'LT_NUMERIC', 'LTE_NUMERIC'] as const) {
      const e = rejection(() => labelQueriesFromWire([{ terms: [{ key: 'k', op }] }]));
      expect(e.code).toBe(status.INVALID_ARGUMENT);
      expect(e.message).toBe(`missing value for label query operator: ${op}`);
    }
    expect(labelQueriesFromWire([{ terms: [{ key: 'k', op: 'IN' }] }])).toEqual([
      labelQuery(labelIn('k', [])),
    ]);
  });
});

describe('ID queries on the wire', () => {
  it('treats an absent or empty pattern as no query', () => {
    expect(idQueryFromWire(undefined)).toBeUndefined();
    expect(idQueryFromWire({ regexp: '' })).toBeUndefined();
    expect(idQueryToWire(undefined)).toBeUndefined();
  });

  it('matches unanchored and carries RE2 flag groups both ways', () => {
    const q = idQueryFromWire({ regexp: '(?i)^web-\\d+' });
    expect(q?.regexp.test('WEB-12')).toBe(true);
    expect(q?.regexp.test('x-web-1')).toBe(false);
    expect(idQueryToWire(idRegexpMatch(/^a.b/is))).toEqual({ regexp: '(?is)^a.b' });
    expect(idQueryToWire(idRegexpMatch('foo'))).toEqual({ regexp: 'foo' });
  });

  it('rejects patterns that do not compile, or are too long, as INVALID_ARGUMENT', () => {
    const bad = rejection(() => idQueryFromWire({ regexp: '([a-z' }));
    expect(bad.code).toBe(status.INVALID_ARGUMENT);
    expect(bad.message).toMatch(/^failed to compile regexp: /);
    const long = rejection(() => idQueryFromWire({ regexp: 'a'.repeat(MAX_ID_REGEXP_LENGTH + 1) }));
    expect(long.code).toBe(status.INVALID_ARGUMENT);
    expect(long.message).toBe(`regexp is too long: ${MAX_ID_REGEXP_LENGTH + 1} > ${MAX_ID_REGEXP_LENGTH}`);
  });
});
