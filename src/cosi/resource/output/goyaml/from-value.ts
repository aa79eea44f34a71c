// nodeFromValue: a JS value as Go's yaml.v3 Marshal writes the equivalent Go value.
//
// Plain objects are structs (keys in insertion order, undefined properties left out), Maps are Go
// maps (yaml.v3 key order), arrays and Uint8Arrays are slices ([]byte too is a list of numbers),
// integral numbers and bigints are ints, other numbers float64, Dates time.Time (RFC 3339 nano).
import { YAMLError } from './errors.js';
import { formatYAMLFloat } from './float.js';
import { type YNode, type YScalar, yMap, yScalar, ySeq } from './node.js';
import { needsQuotes } from './resolve.js';
import { type MapKey, sortGoKeys } from './sort-keys.js';
import { formatRFC3339Nano } from './time.js';

/** stringNode is yaml.v3's stringv: literal when multi-line, double-quoted when it would read back as non-string. */
export const stringNode = (s: string): YScalar =>
  s.includes('\n') ? yScalar(s, 'literal') : yScalar(s, needsQuotes(s) ? 'double' : 'plain');

const numberNode = (n: number): YScalar =>
  // integral values below 1e21 print all their digits, like Go's ints
  yScalar(Number.isInteger(n) && Math.abs(n) < 1e21 ? String(n) : formatYAMLFloat(n));

const isMapKey = (k: unknown): k is MapKey =>
  typeof k === 'string' || typeof k === 'number' || typeof k === 'bigint' || typeof k === 'boolean';

export function nodeFromValue(v: unknown, path = 'value'): YNode {
  if (v === null || v === undefined) return yScalar('null');
  switch (typeof v) {
    case 'string':
      return stringNode(v);
    case 'boolean':
      return yScalar(v ? 'true' : 'false');
    case 'bigint':
      return yScalar(v.toString());
    case 'number':
      return numberNode(v);
    case 'object':
      break;
    default:
      throw new YAMLError('marshal', `${path}: cannot marshal a ${typeof v} to YAML`);
  }
  if (Array.isArray(v)) return ySeq(v.map((x, i) => nodeFromValue(x, `${path}[${i}]`)));
  if (v instanceof Uint8Array) return ySeq(Array.from(v, (b) => yScalar(String(b))));
  if (v instanceof Date) {
    if (Number.isNaN(v.getTime()))
      throw new YAMLError('marshal', `${path}: cannot marshal an invalid Date to YAML`);
    return yScalar(formatRFC3339Nano(v.getTime()));
  }
  if (v instanceof Map) {
    const keys = [...v.keys()];
    for (const k of keys)
      if (!isMapKey(k))
        throw new YAMLError('marshal', `${path}: map key of type ${typeof k} has no YAML form`);
    return yMap(
      sortGoKeys(keys as MapKey[]).map((k) => [
        nodeFromValue(k, path),
        nodeFromValue(v.get(k), `${path}[${JSON.stringify(String(k))}]`),
      ]),
    );
  }
  const entries: [YNode, YNode][] = [];
  for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
    if (x === undefined) continue;
    entries.push([stringNode(k), nodeFromValue(x, `${path}.${k}`)]);
  }
  return yMap(entries);
}
