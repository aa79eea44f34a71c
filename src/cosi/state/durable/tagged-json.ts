// Tagged JSON: spec data as JSON that round-trips bytes, maps, dates, bigints, odd numbers and undefined.
import { errUnencodable } from './errors.js';

/** JSON is what JSON.stringify writes and JSON.parse reads back unchanged. */
export type JSONValue = null | boolean | number | string | JSONValue[] | { [k: string]: JSONValue };

// A value JSON cannot hold becomes {"$t": tag, "v": payload}; a plain object that itself has a "$t" key
// is wrapped as {"$t": "obj", "v": …} so it is never mistaken for a tag.
const TAG = '$t';

type Tag = 'undef' | 'num' | 'big' | 'bytes' | 'date' | 'map' | 'obj';

const tagged = (t: Tag, v?: JSONValue): JSONValue => (v === undefined ? { [TAG]: t } : { [TAG]: t, v });

// Assigning "__proto__" with `o[k] = v` would set the prototype instead of a key.
const setOwn = (o: Record<string, unknown>, k: string, v: unknown): void => {
  if (k === '__proto__')
    Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
  else o[k] = v;
};

const isPlainObject = (v: object): boolean => {
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
};

/** toTaggedJSON converts spec data; `path` names the offending value when it cannot be represented. */
export function toTaggedJSON(v: unknown, path = 'spec'): JSONValue {
  switch (typeof v) {
    case 'undefined':
      return tagged('undef');
    case 'boolean':
    case 'string':
      return v;
    case 'number':
      return Number.isFinite(v) && !Object.is(v, -0) ? v : tagged('num', Object.is(v, -0) ? '-0' : String(v));
    case 'bigint':
      return tagged('big', v.toString());
    case 'object':
      break;
    default:
      throw errUnencodable(path, `a ${typeof v}`);
  }
  if (v === null) return null;
  if (Array.isArray(v)) {
    const out: JSONValue[] = new Array(v.length);
    for (let i = 0; i < v.length; i++) out[i] = toTaggedJSON(v[i], `${path}[${i}]`);
    return out;
  }
  if (v instanceof Uint8Array)
    return tagged('bytes', Buffer.from(v.buffer, v.byteOffset, v.length).toString('base64'));
  if (v instanceof Date) return tagged('date', toTaggedJSON(v.getTime(), path));
  if (v instanceof Map) {
    const entries: JSONValue[] = [];
    for (const [k, x] of v)
      entries.push([toTaggedJSON(k, `${path}.<key>`), toTaggedJSON(x, `${path}.get(…)`)]);
    return tagged('map', entries);
  }
  // Anything else with a prototype (Set, other typed arrays, class instances) would lose its identity.
  if (!isPlainObject(v))
    throw errUnencodable(path, `an instance of ${v.constructor?.name ?? 'an unknown class'}`);
  const out: Record<string, JSONValue> = {};
  for (const k of Object.keys(v))
    setOwn(out, k, toTaggedJSON((v as Record<string, unknown>)[k], `${path}.${k}`));
  return Object.hasOwn(v, TAG) ? tagged('obj', out) : out;
}

/** TaggedJSONError says why a stored value is not valid tagged JSON. */
export class TaggedJSONError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TaggedJSONError';
  }
}

const SPECIAL_NUMBERS: Readonly<Record<string, number>> = {
  NaN: Number.NaN,
  Infinity: Number.POSITIVE_INFINITY,
  '-Infinity': Number.NEGATIVE_INFINITY,
  '-0': -0,
};

const decodeObject = (o: Record<string, JSONValue>): Record<string, unknown> => {
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(o)) setOwn(out, k, fromTaggedJSON(o[k] as JSONValue));
  return out;
};

/** fromTaggedJSON is the inverse of toTaggedJSON; it throws TaggedJSONError on a malformed tag. */
export function fromTaggedJSON(j: JSONValue): unknown {
  if (j === null || typeof j !== 'object') return j;
  if (Array.isArray(j)) return j.map(fromTaggedJSON);
  if (!Object.hasOwn(j, TAG)) return decodeObject(j);
  const t = j[TAG];
  const v = j.v;
  switch (t) {
    case 'undef':
      return undefined;
    case 'num':
      if (typeof v === 'string' && Object.hasOwn(SPECIAL_NUMBERS, v)) return SPECIAL_NUMBERS[v];
      break;
    case 'big':
      if (typeof v === 'string' && /^-?\d+$/.test(v)) return BigInt(v);
      break;
    case 'bytes':
      if (typeof v === 'string') return new Uint8Array(Buffer.from(v, 'base64'));
      break;
    case 'date': {
      const ms = v === undefined ? undefined : fromTaggedJSON(v);
      if (typeof ms === 'number') return new Date(ms);
      break;
    }
    case 'map':
      if (Array.isArray(v)) {
        const m = new Map<unknown, unknown>();
        for (const e of v) {
          if (!Array.isArray(e) || e.length !== 2) throw new TaggedJSONError('map entry is not a pair');
          m.set(fromTaggedJSON(e[0] as JSONValue), fromTaggedJSON(e[1] as JSONValue));
        }
        return m;
      }
      break;
    case 'obj':
      if (v !== null && typeof v === 'object' && !Array.isArray(v)) return decodeObject(v);
      break;
  }
  throw new TaggedJSONError(`malformed ${JSON.stringify(t)} tag`);
}
