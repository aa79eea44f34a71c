// Label queries: terms AND-ed inside a query, queries OR-ed in a list, with upstream's exact edge cases.
import type { KV } from './kv.js';

export type LabelOp = 'exists' | 'equal' | 'in' | 'lt' | 'lte' | 'lt-numeric' | 'lte-numeric';

export interface LabelTerm {
  readonly key: string;
  readonly value: readonly string[];
  readonly op: LabelOp;
  readonly invert: boolean;
}

/** LabelQuery matches when every term matches (no terms: everything). */
export interface LabelQuery {
  readonly terms: readonly LabelTerm[];
}

const term = (op: LabelOp, key: string, value: readonly string[], invert = false): LabelTerm => ({
  key,
  value,
  op,
  invert,
});

export const NotMatches = true;
export const labelExists = (key: string, invert = false) => term('exists', key, [], invert);
export const labelEqual = (key: string, value: string, invert = false) => term('equal', key, [value], invert);
export const labelIn = (key: string, values: readonly string[], invert = false) =>
  term('in', key, values, invert);
export const labelLT = (key: string, value: string, invert = false) => term('lt', key, [value], invert);
export const labelLTE = (key: string, value: string, invert = false) => term('lte', key, [value], invert);
export const labelLTNumeric = (key: string, value: string, invert = false) =>
  term('lt-numeric', key, [value], invert);
export const labelLTENumeric = (key: string, value: string, invert = false) =>
  term('lte-numeric', key, [value], invert);

export const labelQuery = (...terms: LabelTerm[]): LabelQuery => ({ terms });

const COMPARISONS: ReadonlySet<LabelOp> = new Set(['lt', 'lte', 'lt-numeric', 'lte-numeric']);

/** matchTerm evaluates one term; a missing key or unparsable number fails comparisons even when inverted. */
export function matchTerm(labels: KV, t: LabelTerm): boolean {
  if (labels.empty() && t.op === 'exists') return t.invert;
  const v = labels.get(t.key);
  if (v === undefined) return COMPARISONS.has(t.op) ? false : t.invert;
  if (t.op === 'exists') return !t.invert;
  const first = t.value[0];
  if (first === undefined) return t.invert;
  let ok: boolean;
  switch (t.op) {
    case 'equal':
      ok = v === first;
      break;
    case 'in':
      ok = t.value.includes(v);
      break;
    case 'lt':
      ok = v < first;
      break;
    case 'lte':
      ok = v <= first;
      break;
    case 'lt-numeric':
    case 'lte-numeric': {
      const a = parseQuantity(v);
      const b = parseQuantity(first);
      if (a === undefined || b === undefined) return false;
      ok = t.op === 'lt-numeric' ? a < b : a <= b;
      break;
    }
  }
  return t.invert ? !ok : ok;
}

/** matchQuery ANDs the terms. */
export const matchQuery = (labels: KV, q: LabelQuery): boolean => q.terms.every((t) => matchTerm(labels, t));

/** matchQueries ORs the queries; an empty list matches everything. */
export const matchQueries = (labels: KV, qs: readonly LabelQuery[] | undefined): boolean =>
  !qs || qs.length === 0 || qs.some((q) => matchQuery(labels, q));

const BINARY: Readonly<Record<string, bigint>> = {
  ki: 1n << 10n,
  mi: 1n << 20n,
  gi: 1n << 30n,
  ti: 1n << 40n,
  pi: 1n << 50n,
};
const DECIMAL: Readonly<Record<string, bigint>> = {
  k: 10n ** 3n,
  m: 10n ** 6n,
  g: 10n ** 9n,
  t: 10n ** 12n,
  p: 10n ** 15n,
};

const INT64_MAX = (1n << 63n) - 1n;
const INT64_MIN = -(1n << 63n);

/**
 * parseQuantity reads an int64 prefix of digits and '-' and an optional unit, as upstream does:
 * only the unit's first two letters (ki … pi) or first letter (k m g t p) count, so "10kg" is 10,000.
 * The product wraps to int64 like Go's multiplication.
 */
export function parseQuantity(raw: string): bigint | undefined {
  const s = raw.trim();
  const split = /^[0-9-]*/.exec(s)![0].length;
  const digits = s.slice(0, split);
  if (!/^[+-]?\d+$/.test(digits)) return undefined;
  const n = BigInt(digits);
  if (n > INT64_MAX || n < INT64_MIN) return undefined;
  const unit = s.slice(split).trim().toLowerCase();
  if (unit === '') return n;
  const mul = BINARY[unit.slice(0, 2)] ?? DECIMAL[unit.slice(0, 1)];
  return mul === undefined ? undefined : BigInt.asIntN(64, n * mul);
}
