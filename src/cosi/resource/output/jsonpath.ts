// Kubernetes JSONPath (client-go util/jsonpath, missing keys allowed), the subset print columns use.
//
// Supported: literal text around {…} actions; `.field` (with `\` escapes), `['field']`, `.*`,
// `..field` (recursive descent), `[n]`, `[-n]`, `[start:end:step]`, `[*]`, unions `[0,2]`, quoted
// text `{"x"}`, `$`/`@` as the root, and filters `[?(@.a)]`, `[?(@.a OP x)]` (OP one of == != < > <=
// >=, x a path, a quoted string or a number), which upstream's print columns use
// (`{.conditions[?(@.type=="Ready")].status}`). Range/end and bare literals are rejected at parse time.
// Evaluation and printing follow client-go: a missing key yields nothing, an out-of-range index is
// an error, maps and slices print as compact JSON, null as "null", several results join with spaces.

import { goJSON } from './gojson.js';
import { formatGoG, GoTime, type GoValue } from './goyaml/index.js';

export class JSONPathError extends Error {
  constructor(
    readonly template: string,
    message: string,
  ) {
    super(`jsonpath ${JSON.stringify(template)}: ${message}`);
    this.name = 'JSONPathError';
  }
}

interface Param {
  readonly value: number;
  readonly known: boolean;
  /** the end of `[n]`, derived as n+1 */
  readonly derived: boolean;
}

type Step =
  | { readonly kind: 'field'; readonly name: string }
  | { readonly kind: 'wildcard' }
  | { readonly kind: 'recursive' }
  | { readonly kind: 'array'; readonly params: readonly [Param, Param, Param] }
  | { readonly kind: 'union'; readonly branches: readonly (readonly Step[])[] }
  | { readonly kind: 'text'; readonly text: string }
  /** a number in a filter's comparison: an int (bigint) or a float, as client-go parses it */
  | { readonly kind: 'literal'; readonly value: GoValue }
  | {
      readonly kind: 'filter';
      readonly left: readonly Step[];
      /** `exists` when the filter names only a path */
      readonly op: FilterOp;
      readonly right: readonly Step[];
    };

type FilterOp = 'exists' | '==' | '!=' | '<' | '>' | '<=' | '>=';
const FILTER_OPS: readonly string[] = ['==', '!=', '<', '>', '<=', '>='];

type Part =
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'action'; readonly steps: readonly Step[] };

/** JSONPath is a parsed template, reusable across values. */
export interface JSONPath {
  readonly template: string;
  readonly parts: readonly Part[];
}

const SLICE = /^(-?\d*)(:-?\d*)?(:-?\d*)?$/;
const DICT_KEY = /^'([^']*)'$/;
const isTerminator = (c: string | undefined) => c === undefined || ' \t\r\n.,[]$@{}'.includes(c);

function parseArray(template: string, text: string): Step {
  const inner = text === '*' ? ':' : text;
  const alternatives = inner.split(',');
  if (alternatives.length > 1)
    return { kind: 'union', branches: alternatives.map((a) => parseActionSteps(template, `[${a.trim()}]`)) };
  // client-go re-parses ['key'] as `.key`, so a dotted key still splits
  const dict = DICT_KEY.exec(inner);
  if (dict) return { kind: 'union', branches: [parseActionSteps(template, `.${dict[1]}`)] };
  const m = SLICE.exec(inner);
  if (!m) throw new JSONPathError(template, `invalid array index ${inner}`);
  const params: Param[] = [];
  for (let i = 0; i < 3; i++) {
    let raw = m[i + 1];
    if (raw !== undefined && raw !== '') {
      if (i > 0) raw = raw.slice(1);
      if (i > 0 && raw === '') params.push({ value: 0, known: false, derived: false });
      else params.push({ value: Number.parseInt(raw, 10), known: true, derived: false });
    } else if (i === 1) params.push({ value: params[0]!.value + 1, known: true, derived: true });
    else params.push({ value: 0, known: false, derived: false });
  }
  return { kind: 'array', params: params as [Param, Param, Param] };
}

/** parseActionSteps parses the inside of one {…} action. */
function parseActionSteps(template: string, src: string): Step[] {
  const steps: Step[] = [];
  let i = 0;
  while (i < src.length) {
    const c = src[i]!;
    if (src.startsWith('[?(', i)) {
      i = parseFilter(template, src, i, steps);
      continue;
    }
    if (src.startsWith('..', i)) {
      if (steps.at(-1)?.kind === 'recursive')
        throw new JSONPathError(template, 'invalid multiple recursive descent');
      steps.push({ kind: 'recursive' });
      i += 2;
      // `..name` reads the name straight away; `..[0]` leaves the bracket to the next round
      if (i < src.length && /[\p{L}\p{Nd}_]/u.test(src[i]!)) i = readField(src, i, steps);
      continue;
    }
    if (c === ' ' || c === '$' || c === '@') {
      i++;
      continue;
    }
    if (c === '.') {
      i = readField(src, i + 1, steps);
      continue;
    }
    if (c === '[') {
      const end = src.indexOf(']', i);
      if (end < 0 || src.slice(i, end).includes('\n'))
        throw new JSONPathError(template, 'unterminated array');
      steps.push(parseArray(template, src.slice(i + 1, end)));
      i = end + 1;
      continue;
    }
    if (c === '"' || c === "'") {
      let j = i + 1;
      while (j < src.length && !(src[j] === c && src[j - 1] !== '\\')) j++;
      if (j >= src.length) throw new JSONPathError(template, 'unterminated quoted string');
      steps.push({ kind: 'text', text: unquote(src.slice(i + 1, j), c) });
      i = j + 1;
      continue;
    }
    throw new JSONPathError(template, `unsupported character in action: ${JSON.stringify(c)} at ${i}`);
  }
  return steps;
}

/**
 * parseFilter reads `[?(…)]` from src[start] as client-go's parser does: up to the first `)` outside
 * quotes, which a `]` must follow; then `left OP right`, or a bare path that must exist.
 */
function parseFilter(template: string, src: string, start: number, steps: Step[]): number {
  const from = start + 3;
  let quote = '';
  let i = from;
  for (; ; i++) {
    if (i >= src.length || src[i] === '\n') throw new JSONPathError(template, 'unterminated filter');
    const c = src[i]!;
    if (quote) {
      if (c === quote && src[i - 1] !== '\\') quote = '';
    } else if (c === '"' || c === "'") quote = c;
    else if (c === ')') break;
  }
  if (src[i + 1] !== ']') throw new JSONPathError(template, 'unclosed array expect ]');
  const text = src.slice(from, i);
  const m = /^([^!<>=]+)([!<>=]+)(.+?)$/s.exec(text);
  if (!m) steps.push({ kind: 'filter', left: parseActionSteps(template, text), op: 'exists', right: [] });
  else {
    if (!FILTER_OPS.includes(m[2]!))
      throw new JSONPathError(template, `unrecognized filter operator ${m[2]}`);
    steps.push({
      kind: 'filter',
      left: parseActionSteps(template, m[1]!),
      op: m[2] as FilterOp,
      right: parseOperand(template, m[3]!),
    });
  }
  return i + 2;
}

/** parseOperand: a number is a literal (an int unless it has a point), anything else a path or quoted text. */
function parseOperand(template: string, src: string): Step[] {
  const t = src.trim();
  if (/^-?\d+$/.test(t)) return [{ kind: 'literal', value: BigInt(t) }];
  if (/^-?\d+\.\d*$/.test(t)) return [{ kind: 'literal', value: Number(t) }];
  return parseActionSteps(template, src);
}

function readField(src: string, start: number, steps: Step[]): number {
  let i = start;
  let name = '';
  while (!isTerminator(src[i])) {
    if (src[i] === '\\' && i + 1 < src.length) i++;
    name += src[i];
    i++;
  }
  steps.push(name === '*' ? { kind: 'wildcard' } : { kind: 'field', name });
  return i;
}

function unquote(body: string, quote: string): string {
  return body.replace(/\\(.)/g, (_, ch: string) =>
    ch === 'n' ? '\n' : ch === 't' ? '\t' : ch === 'r' ? '\r' : ch === quote || ch === '\\' ? ch : `\\${ch}`,
  );
}

/** parseJSONPath parses a template such as "{.aliases[:]}" or "name={.metadata.name}". */
export function parseJSONPath(template: string): JSONPath {
  const parts: Part[] = [];
  let i = 0;
  while (i < template.length) {
    const open = template.indexOf('{', i);
    if (open < 0) {
      parts.push({ kind: 'text', text: template.slice(i) });
      break;
    }
    if (open > i) parts.push({ kind: 'text', text: template.slice(i, open) });
    const close = findClose(template, open + 1);
    parts.push({ kind: 'action', steps: parseActionSteps(template, template.slice(open + 1, close)) });
    i = close + 1;
  }
  return { template, parts };
}

/** findClose finds the `}` ending an action, stepping over brackets and quoted text. */
function findClose(template: string, from: number): number {
  let quote = '';
  for (let i = from; i < template.length; i++) {
    const c = template[i]!;
    if (c === '\n' || c === '\r') break;
    if (quote) {
      if (c === quote && template[i - 1] !== '\\') quote = '';
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '}') return i;
  }
  throw new JSONPathError(template, 'unclosed action');
}

const isMap = (v: GoValue): v is { [key: string]: GoValue } =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof GoTime);

/** children lists what a wildcard sees: map values (in key order, for stable output), list items, a string's bytes. */
function children(v: GoValue): GoValue[] {
  if (Array.isArray(v)) return v;
  if (isMap(v))
    return Object.keys(v)
      .sort()
      .map((k) => v[k]!);
  if (typeof v === 'string') return Array.from(Buffer.from(v, 'utf8'), (b) => BigInt(b));
  return [];
}

function recursive(input: readonly GoValue[]): GoValue[] {
  const out: GoValue[] = [];
  for (const v of input) {
    if (v === null) continue;
    const kids = children(v);
    if (kids.length > 0) {
      out.push(v);
      out.push(...recursive(kids));
    }
  }
  return out;
}

function array(
  template: string,
  input: readonly GoValue[],
  params: readonly [Param, Param, Param],
): GoValue[] {
  const out: GoValue[] = [];
  for (const v of input) {
    if (v === null) continue;
    if (!Array.isArray(v)) throw new JSONPathError(template, `${typeName(v)} is not array or slice`);
    const len = v.length;
    let start = params[0].known ? params[0].value : 0;
    if (start < 0) start += len;
    let end = params[1].known ? params[1].value : len;
    if (end < 0 || (end === 0 && params[1].derived)) end += len;
    if (end === start) return out;
    if (start >= len || start < 0)
      throw new JSONPathError(template, `array index out of bounds: index ${start}, length ${len}`);
    if (end > len || end < 0)
      throw new JSONPathError(template, `array index out of bounds: index ${end - 1}, length ${len}`);
    if (start > end)
      throw new JSONPathError(template, `starting index ${start} is greater than ending index ${end}`);
    let step = 1;
    if (params[2].known) {
      if (params[2].value <= 0) throw new JSONPathError(template, 'step must be > 0');
      step = params[2].value;
    }
    for (let i = start; i < end; i += step) out.push(v[i]!);
  }
  return out;
}

const typeName = (v: GoValue): string =>
  typeof v === 'string'
    ? 'string'
    : typeof v === 'boolean'
      ? 'bool'
      : typeof v === 'bigint'
        ? 'int'
        : isMap(v)
          ? 'map[string]interface {}'
          : 'float64';

function walk(template: string, input: readonly GoValue[], steps: readonly Step[]): GoValue[] {
  let cur: GoValue[] = [...input];
  for (const s of steps) {
    switch (s.kind) {
      case 'field':
        // missing keys, and fields of non-maps, yield nothing (AllowMissingKeys)
        cur = cur.filter(isMap).flatMap((m) => (Object.hasOwn(m, s.name) ? [m[s.name]!] : []));
        break;
      case 'wildcard':
        cur = cur.filter((v) => v !== null).flatMap(children);
        break;
      case 'recursive':
        cur = recursive(cur);
        break;
      case 'array':
        cur = array(template, cur, s.params);
        break;
      case 'union':
        cur = s.branches.flatMap((b) => walk(template, cur, b));
        break;
      case 'text':
        cur = [s.text];
        break;
      case 'literal':
        cur = [s.value];
        break;
      case 'filter':
        cur = filter(template, cur, s);
        break;
    }
  }
  return cur;
}

/** filter keeps the items of each list for which the comparison holds (client-go's evalFilter). */
function filter(
  template: string,
  input: readonly GoValue[],
  s: Extract<Step, { kind: 'filter' }>,
): GoValue[] {
  const out: GoValue[] = [];
  for (const v of input) {
    if (!Array.isArray(v))
      throw new JSONPathError(template, `${goPrint(v)} is not array or slice and cannot be filtered`);
    for (const item of v) {
      const lefts = walk(template, [item], s.left);
      if (s.op === 'exists') {
        if (lefts.length > 0) out.push(item);
        continue;
      }
      const rights = walk(template, [item], s.right);
      if (lefts.length === 0 || rights.length === 0) continue;
      if (lefts.length > 1 || rights.length > 1)
        throw new JSONPathError(template, 'can only compare one element at a time');
      if (compare(template, lefts[0]!, s.op, rights[0]!)) out.push(item);
    }
  }
  return out;
}

type BasicKind = 'bool' | 'int' | 'float' | 'string';

const basicKind = (template: string, v: GoValue): BasicKind => {
  switch (typeof v) {
    case 'boolean':
      return 'bool';
    case 'bigint':
      return 'int';
    case 'number':
      return 'float';
    case 'string':
      return 'string';
    default:
      throw new JSONPathError(template, 'invalid type for comparison');
  }
};

/** compare is text/template's eq/ne/lt/…, as client-go's fork has them: both sides of one basic kind. */
function compare(template: string, a: GoValue, op: Exclude<FilterOp, 'exists'>, b: GoValue): boolean {
  const ka = basicKind(template, a);
  const kb = basicKind(template, b);
  if (ka !== kb) throw new JSONPathError(template, 'incompatible types for comparison');
  if (op === '==') return a === b;
  if (op === '!=') return a !== b;
  if (ka === 'bool') throw new JSONPathError(template, 'invalid type for comparison');
  const x = a as string | number | bigint;
  const y = b as string | number | bigint;
  const less = x < y;
  switch (op) {
    case '<':
      return less;
    case '<=':
      return less || x === y;
    case '>':
      return !less && x !== y;
    case '>=':
      return !less;
  }
}

/** goPrint is fmt's %v of a decoded value, for error messages. */
function goPrint(v: GoValue): string {
  if (v === null) return '<nil>';
  if (Array.isArray(v)) return `[${v.map(goPrint).join(' ')}]`;
  if (isMap(v))
    return `map[${Object.keys(v)
      .sort()
      .map((k) => `${k}:${goPrint(v[k]!)}`)
      .join(' ')}]`;
  return printValue(v);
}

/** printValue is how client-go prints one result: JSON for maps and lists, fmt.Print for the rest. */
function printValue(v: GoValue): string {
  if (v === null) return 'null';
  // maps, slices and structs (a time.Time is one) print as JSON
  if (typeof v === 'object') return goJSON(v);
  if (typeof v === 'number') return formatGoG(v);
  return String(v);
}

/** executeJSONPath evaluates a template over a value and prints the results. */
export function executeJSONPath(path: JSONPath, data: GoValue): string {
  let out = '';
  for (const part of path.parts) {
    if (part.kind === 'text') out += part.text;
    else out += walk(path.template, [data], part.steps).map(printValue).join(' ');
  }
  return out;
}
