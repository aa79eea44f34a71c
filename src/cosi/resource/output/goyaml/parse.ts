// parseYAML reads YAML text into a YNode tree that keeps each scalar's style, so it re-emits as written.
//
// Scalars are read untyped (the failsafe schema) because typing is Go's business: see resolve.ts
// and decode.ts. Aliases are expanded in place and comments are dropped; yaml.v3 would keep both.
import {
  type Document,
  isAlias,
  isMap,
  isScalar,
  isSeq,
  LineCounter,
  type Node,
  parseDocument,
  type Scalar,
} from 'yaml';
import { YAMLError } from './errors.js';
import { type ScalarStyle, type YNode, yMap, yScalar, ySeq } from './node.js';

/** Where a node starts, 1-based, for error messages. */
export interface Position {
  readonly line: number;
  readonly col: number;
}

const positions = new WeakMap<YNode, Position>();

/** positionOf gives where a parsed node started in its source, when it came from parseYAML. */
export const positionOf = (n: YNode): Position | undefined => positions.get(n);

/** at renders a position as yaml.v3 does in its errors ("3:5"). */
export const at = (n: YNode): string => {
  const p = positions.get(n);
  return p ? `${p.line}:${p.col}` : '?:?';
};

const STYLES: Readonly<Record<string, ScalarStyle>> = {
  PLAIN: 'plain',
  QUOTE_SINGLE: 'single',
  QUOTE_DOUBLE: 'double',
  BLOCK_LITERAL: 'literal',
  BLOCK_FOLDED: 'folded',
};

const LONG_TAG = 'tag:yaml.org,2002:';
const shortTag = (tag: string | undefined): string | undefined =>
  tag === undefined ? undefined : tag.startsWith(LONG_TAG) ? `!!${tag.slice(LONG_TAG.length)}` : tag;

const MAX_DEPTH = 1000;

function convert(n: Node | null | undefined, doc: Document, lc: LineCounter, depth: number): YNode {
  if (depth > MAX_DEPTH) throw new YAMLError('syntax', `YAML nests deeper than ${MAX_DEPTH} levels`);
  if (n === null || n === undefined) return yScalar('');
  let out: YNode;
  if (isAlias(n)) {
    const target = n.resolve(doc);
    if (!target) throw new YAMLError('syntax', `unknown anchor ${JSON.stringify(n.source)}`);
    out = convert(target as Node, doc, lc, depth + 1);
  } else if (isScalar(n)) {
    const s = n as Scalar;
    const value = s.value === null || s.value === undefined ? '' : String(s.value);
    let style = STYLES[s.type ?? 'PLAIN'] ?? 'plain';
    // a plain scalar folded over blank lines holds a newline; yaml.v3 then writes it as a literal
    if (style === 'plain' && value.includes('\n')) style = 'literal';
    out = yScalar(value, style, shortTag(s.tag));
  } else if (isMap(n)) {
    out = yMap(
      n.items.map((p) => [
        convert(p.key as Node, doc, lc, depth + 1),
        convert(p.value as Node, doc, lc, depth + 1),
      ]),
      n.flow === true,
    );
    if (n.tag !== undefined) out = { ...out, tag: shortTag(n.tag)! };
  } else if (isSeq(n)) {
    out = ySeq(
      n.items.map((x) => convert(x as Node, doc, lc, depth + 1)),
      n.flow === true,
    );
    if (n.tag !== undefined) out = { ...out, tag: shortTag(n.tag)! };
  } else throw new YAMLError('syntax', 'unsupported YAML node');
  const offset = n.range?.[0];
  if (offset !== undefined) {
    const p = lc.linePos(offset);
    positions.set(out, { line: p.line, col: p.col });
  }
  return out;
}

/** parseYAML parses one document; an empty document gives undefined. */
export function parseYAML(text: string): YNode | undefined {
  const lc = new LineCounter();
  const doc = parseDocument(text, {
    schema: 'failsafe',
    resolveKnownTags: false,
    lineCounter: lc,
    prettyErrors: false,
  });
  const err = doc.errors[0];
  if (err) {
    const p = lc.linePos(err.pos[0]);
    throw new YAMLError('syntax', `invalid YAML at ${p.line}:${p.col}: ${err.message}`, { cause: err });
  }
  if (doc.contents === null) return undefined;
  return convert(doc.contents as Node, doc, lc, 0);
}
