// goValue: what Go's yaml.v3 Unmarshal into an interface{} makes of a YAML tree.
//
// Quoted and block scalars are strings; plain ones resolve (null, bool, int, float, string);
// timestamps become time.Time values (GoTime) or keep their text; !!binary is decoded.
// Merge keys ("<<") and other explicit tags are not interpreted.
import { YAMLError } from './errors.js';
import type { YNode } from './node.js';
import { at } from './parse.js';
import { resolvePlain } from './resolve.js';
import { goTimeText } from './time.js';

/** GoTime is a timestamp yaml.v3 decoded into a time.Time; it prints as a JSON string of its RFC 3339 form. */
export class GoTime {
  constructor(readonly rfc3339: string) {}
}

export interface GoDecodeOptions {
  /**
   * 'bigint' keeps Go's int/float split (ints are bigints, floats numbers), as JSON and table
   * output need; 'number' gives plain numbers where they are safe, as spec decoding wants.
   */
  readonly ints?: 'bigint' | 'number';
  /** 'strict' rejects mapping keys that are not strings, as Go's JSON encoder does; 'text' keys by their text */
  readonly keys?: 'strict' | 'text';
  /** 'go' turns timestamps into GoTime values as yaml.v3 does; 'text' (the default) keeps what was written */
  readonly times?: 'go' | 'text';
}

/** GoValue is a decoded YAML value. */
export type GoValue =
  | null
  | boolean
  | bigint
  | number
  | string
  | GoTime
  | GoValue[]
  | { [key: string]: GoValue };

function scalarValue(n: Extract<YNode, { kind: 'scalar' }>, opts: GoDecodeOptions): GoValue {
  // yaml.v3 hands !!binary to an interface{} as the decoded bytes in a string
  if (n.tag === '!!binary') return Buffer.from(n.value.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (n.style !== 'plain' || n.tag === '!!str') return n.value;
  const r = resolvePlain(n.value);
  if (r.tag === '!!timestamp' && opts.times === 'go') return new GoTime(goTimeText(n.value)!);
  if (typeof r.value === 'bigint' && opts.ints === 'number') {
    const x = Number(r.value);
    return Number.isSafeInteger(x) ? x : r.value;
  }
  return r.value;
}

function keyText(k: YNode, opts: GoDecodeOptions): string {
  if (k.kind !== 'scalar') throw new YAMLError('decode', `${at(k)}: mapping key is not a scalar`);
  if (opts.keys === 'strict' && typeof scalarValue(k, { ints: 'bigint', times: 'go' }) !== 'string')
    throw new YAMLError(
      'decode',
      `${at(k)}: mapping key ${JSON.stringify(k.value)} is not a string, which Go's JSON encoder rejects (json: unsupported type: map[interface {}]interface {})`,
    );
  return k.value;
}

/** goValue decodes a YAML tree; undefined (an empty document) is null. */
export function goValue(n: YNode | undefined, opts: GoDecodeOptions = {}): GoValue {
  if (n === undefined) return null;
  switch (n.kind) {
    case 'scalar':
      return scalarValue(n, opts);
    case 'seq':
      return n.items.map((x) => goValue(x, opts));
    case 'map': {
      const out: { [key: string]: GoValue } = {};
      for (const [k, v] of n.entries) {
        const key = keyText(k, opts);
        const value = goValue(v, opts);
        if (key === '__proto__')
          Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
        else out[key] = value;
      }
      return out;
    }
  }
}
