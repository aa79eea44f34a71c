// goJSON writes a decoded YAML value the way Go's encoding/json does, as talosctl -o json prints it.
//
// Map keys come out sorted (Go sorts map keys by their UTF-8 bytes), '<', '>' and '&' are escaped
// for HTML, U+2028/U+2029 are escaped, ints (bigints) print all digits and floats use Go's form.

import { formatGoG, formatJSONFloat } from './goyaml/float.js';
import { compareUTF8, GoTime, type GoValue, YAMLError } from './goyaml/index.js';

const SHORT: Readonly<Record<number, string>> = {
  34: '\\"',
  92: '\\\\',
  8: '\\b',
  12: '\\f',
  10: '\\n',
  13: '\\r',
  9: '\\t',
};

/** quoteGo is encoding/json's string form with HTML escaping on (its default). */
export function quoteGo(s: string): string {
  let out = '"';
  let start = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    let esc: string | undefined;
    if (c < 0x20 || c === 0x22 || c === 0x5c || c === 0x3c || c === 0x3e || c === 0x26)
      esc = SHORT[c] ?? `\\u00${c.toString(16).padStart(2, '0')}`;
    else if (c === 0x2028 || c === 0x2029) esc = `\\u${c.toString(16)}`;
    else if (c >= 0xd800 && c < 0xe000) {
      const d = s.charCodeAt(i + 1);
      if (c < 0xdc00 && d >= 0xdc00 && d < 0xe000) {
        i++;
        continue;
      }
      // a lone surrogate is invalid UTF-8 once encoded; Go writes the replacement character
      esc = '\\ufffd';
    }
    if (esc === undefined) continue;
    out += s.slice(start, i) + esc;
    start = i + 1;
  }
  return `${out}${s.slice(start)}"`;
}

function write(v: GoValue, indent: string, depth: number): string {
  if (v === null) return 'null';
  switch (typeof v) {
    case 'boolean':
      return v ? 'true' : 'false';
    case 'bigint':
      return v.toString();
    case 'number': {
      const s = formatJSONFloat(v);
      if (s === undefined) throw new YAMLError('marshal', `json: unsupported value: ${formatGoG(v)}`);
      return s;
    }
    case 'string':
      return quoteGo(v);
  }
  if (v instanceof GoTime) return quoteGo(v.rfc3339);
  const nl = indent === '' ? '' : `\n${indent.repeat(depth + 1)}`;
  const close = indent === '' ? '' : `\n${indent.repeat(depth)}`;
  const colon = indent === '' ? ':' : ': ';
  if (Array.isArray(v)) {
    if (v.length === 0) return '[]';
    return `[${v.map((x) => nl + write(x, indent, depth + 1)).join(',')}${close}]`;
  }
  const keys = Object.keys(v).sort(compareUTF8);
  if (keys.length === 0) return '{}';
  return `{${keys.map((k) => `${nl}${quoteGo(k)}${colon}${write(v[k]!, indent, depth + 1)}`).join(',')}${close}}`;
}

/** goJSON is json.Marshal (indent '') or json.MarshalIndent(v, "", indent), without a trailing newline. */
export const goJSON = (v: GoValue, indent = ''): string => write(v, indent, 0);
