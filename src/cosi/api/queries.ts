// Label and ID queries between their wire form and the state's form, checked strictly on the way in.
import { status } from '@grpc/grpc-js';
import type { IDQuery } from '../resource/id-query.js';
import { type LabelOp, type LabelQuery, type LabelTerm, labelExists } from '../resource/label-query.js';
import { RequestError } from './errors.js';
import type { WireIDQuery, WireLabelOp, WireLabelQuery, WireLabelTerm } from './wire.js';

const OPS_BY_NUMBER: readonly WireLabelOp[] = [
  'EXISTS',
  'EQUAL',
  'NOT_EXISTS',
  'IN',
  'LT',
  'LTE',
  'LT_NUMERIC',
  'LTE_NUMERIC',
];

const TO_STATE: Readonly<Record<Exclude<WireLabelOp, 'NOT_EXISTS'>, LabelOp>> = {
  EXISTS: 'exists',
  EQUAL: 'equal',
  IN: 'in',
  LT: 'lt',
  LTE: 'lte',
  LT_NUMERIC: 'lt-numeric',
  LTE_NUMERIC: 'lte-numeric',
};

const TO_WIRE: Readonly<Record<LabelOp, WireLabelOp>> = {
  exists: 'EXISTS',
  equal: 'EQUAL',
  in: 'IN',
  lt: 'LT',
  lte: 'LTE',
  'lt-numeric': 'LT_NUMERIC',
  'lte-numeric': 'LTE_NUMERIC',
};

/** Operators that compare against value[0]; an empty value list is a malformed term. */
const NEEDS_VALUE: ReadonlySet<WireLabelOp> = new Set(['EQUAL', 'LT', 'LTE', 'LT_NUMERIC', 'LTE_NUMERIC']);

const opName = (op: WireLabelOp | number | undefined): WireLabelOp | undefined => {
  if (op === undefined) return 'EXISTS'; // the zero value is never sent
  if (typeof op === 'number') return OPS_BY_NUMBER[op];
  return OPS_BY_NUMBER.includes(op) ? op : undefined;
};

function termFromWire(t: WireLabelTerm): LabelTerm {
  const op = opName(t.op);
  if (op === undefined)
    throw new RequestError(status.UNIMPLEMENTED, `unsupported label query operator: ${t.op}`);
  const key = t.key ?? '';
  const value = t.value ?? [];
  if (NEEDS_VALUE.has(op) && value.length === 0)
    throw new RequestError(status.INVALID_ARGUMENT, `missing value for label query operator: ${op}`);
  // The deprecated NOT_EXISTS is EXISTS inverted, whatever its own invert flag says.
  if (op === 'NOT_EXISTS') return labelExists(key, true);
  return { key, value: [...value], op: TO_STATE[op], invert: t.invert === true };
}

/** labelQueriesFromWire converts request queries; a bad operator or missing value throws a RequestError. */
export function labelQueriesFromWire(qs: readonly WireLabelQuery[] | undefined): LabelQuery[] {
  return (qs ?? []).map((q) => ({ terms: (q?.terms ?? []).map((t) => termFromWire(t ?? {})) }));
}

/** labelQueryToWire is the client-side direction. */
export const labelQueryToWire = (q: LabelQuery): WireLabelQuery => ({
  terms: q.terms.map((t) => ({ key: t.key, op: TO_WIRE[t.op], value: [...t.value], invert: t.invert })),
});

/**
 * Patterns are attacker-sized input compiled into a backtracking engine; bound them as
 * upstream does. (RE2 guarantees linear matching, JavaScript does not, so keep them short.)
 */
export const MAX_ID_REGEXP_LENGTH = 4096;

// RE2 spells flags as a leading group; JavaScript wants them on the constructor.
const LEADING_FLAGS = /^\(\?([ims]+)\)/;
const RE2_TO_JS_FLAG: Readonly<Record<string, string>> = { i: 'i', m: 'm', s: 's' };

/** idQueryFromWire compiles the ID pattern; an empty pattern means no query. */
export function idQueryFromWire(q: WireIDQuery | undefined): IDQuery | undefined {
  const pattern = q?.regexp ?? '';
  if (pattern === '') return undefined;
  if (pattern.length > MAX_ID_REGEXP_LENGTH)
    throw new RequestError(
      status.INVALID_ARGUMENT,
      `regexp is too long: ${pattern.length} > ${MAX_ID_REGEXP_LENGTH}`,
    );
  const lead = LEADING_FLAGS.exec(pattern);
  const flags = lead ? [...new Set(lead[1])].map((f) => RE2_TO_JS_FLAG[f]).join('') : '';
  const source = lead ? pattern.slice(lead[0].length) : pattern;
  try {
    return { regexp: new RegExp(source, flags) };
  } catch (cause) {
    throw new RequestError(
      status.INVALID_ARGUMENT,
      `failed to compile regexp: ${cause instanceof Error ? cause.message : String(cause)}`,
      { cause },
    );
  }
}

/** idQueryToWire renders a query for the wire, moving supported JavaScript flags into an RE2 group. */
export function idQueryToWire(q: IDQuery | undefined): WireIDQuery | undefined {
  if (!q) return undefined;
  const flags = [...q.regexp.flags].filter((f) => f in RE2_TO_JS_FLAG).join('');
  return { regexp: flags ? `(?${flags})${q.regexp.source}` : q.regexp.source };
}
