// Walks one YAML node against a schema: builds plain data, records lines, reports typed errors.
import {
  type Document,
  isAlias,
  isMap,
  isScalar,
  isSeq,
  type LineCounter,
  type Node,
  type Scalar,
  visit,
} from 'yaml';
import { ConfigError } from '../errors.js';
import type { Schema } from '../types/schema.js';
import { MAX_ALIAS_NODES, MAX_ERROR_DETAIL } from './limits.js';

export interface WalkContext {
  readonly document: string;
  readonly yaml: Document.Parsed;
  readonly counter: LineCounter;
  readonly lines: Map<string, number>;
  readonly errors: ConfigError[];
  /** patches may carry `$patch: delete` directives */
  readonly patch: boolean;
  /** what the stream's aliases may still expand to, shared by its documents */
  readonly aliases: AliasBudget;
  /** set while walking what an alias refers to: every node then counts against the budget */
  readonly viaAlias?: boolean;
}

/** AliasBudget counts down the nodes reached through aliases; below zero the stream has been refused. */
export interface AliasBudget {
  left: number;
}

export const aliasBudget = (): AliasBudget => ({ left: MAX_ALIAS_NODES });

/**
 * yamlDetail is a parser error's first line without its position (the error carries the line), cut to
 * MAX_ERROR_DETAIL characters: an excerpt of a long token would otherwise run on for pages.
 */
export function yamlDetail(e: Error): string {
  const first = e.message.split('\n')[0]!.replace(/ at line.*$/, '');
  // the parser recurses per nesting level and reports the stack it ran out of as the error
  if (first.includes('Maximum call stack size exceeded')) return 'the YAML is nested too deeply';
  return first.length > MAX_ERROR_DETAIL ? `${first.slice(0, MAX_ERROR_DETAIL)}…` : first;
}

export const PATCH_KEY = '$patch';

export const lineAt = (counter: LineCounter, node: Node | null | undefined): number | undefined =>
  node?.range ? counter.linePos(node.range[0]).line : undefined;

const join = (path: string, key: string) => (path === '' ? key : `${path}.${key}`);

function fail(
  ctx: WalkContext,
  code: 'yaml' | 'type' | 'unknown-field',
  path: string,
  node: Node | null,
  msg: string,
): undefined {
  ctx.errors.push(new ConfigError(code, ctx.document, path, lineAt(ctx.counter, node), msg));
}

/** walk returns the value of `node` shaped by `schema`, or undefined for null or a reported error. */
export function walk(raw: unknown, schema: Schema, path: string, ctx: WalkContext): unknown {
  let node = raw as Node | null;
  if (ctx.aliases.left < 0) return undefined;
  if (ctx.viaAlias && --ctx.aliases.left < 0)
    return fail(
      ctx,
      'yaml',
      path,
      node,
      `excessive aliasing: the aliases expand to more than ${MAX_ALIAS_NODES} nodes`,
    );
  if (isAlias(node)) {
    const target = node.resolve(ctx.yaml);
    // yaml.v3 rejects an alias to an anchor that is not (yet) defined; so does Keel
    if (target === undefined)
      return fail(ctx, 'yaml', path, node, `unknown anchor ${JSON.stringify(node.source)}`);
    if (!ctx.viaAlias) return walk(target, schema, path, { ...ctx, viaAlias: true });
    node = target;
  }
  if (node === null || node === undefined) return undefined;
  if (isScalar(node) && node.value === null) return undefined;
  const line = lineAt(ctx.counter, node);
  if (line !== undefined && !ctx.lines.has(path)) ctx.lines.set(path, line);
  if (ctx.patch && isMap(node) && schema.kind !== 'struct' && schema.kind !== 'map') {
    // a selector may stand where a scalar or list is expected: `field: {$patch: delete}`
    const directive = node.items.find((p) => isScalar(p.key) && p.key.value === PATCH_KEY);
    if (directive && node.items.length === 1)
      return { [PATCH_KEY]: String((directive.value as Scalar | null)?.value) };
  }
  switch (schema.kind) {
    case 'any':
      return unstructuredValue(node, path, ctx);
    case 'string':
      if (!isScalar(node)) return fail(ctx, 'type', path, node, 'expected a string');
      return typeof node.value === 'string' ? node.value : sourceOf(node);
    case 'bool':
      return scalarBool(node, path, ctx);
    case 'int':
      if (!isScalar(node) || typeof node.value !== 'number' || !Number.isInteger(node.value))
        return fail(ctx, 'type', path, node, `expected an integer, got ${describe(node)}`);
      return node.value;
    case 'filemode':
      return fileMode(node, path, ctx);
    case 'list': {
      if (!isSeq(node)) return fail(ctx, 'type', path, node, `expected a list, got ${describe(node)}`);
      const out: unknown[] = [];
      node.items.forEach((item, i) => {
        const v = walk(item, schema.of, `${path}[${i}]`, ctx);
        if (v !== undefined) out.push(v);
      });
      return out;
    }
    case 'map':
    case 'struct': {
      if (!isMap(node)) return fail(ctx, 'type', path, node, `expected a mapping, got ${describe(node)}`);
      const out: Record<string, unknown> = {};
      for (const pair of node.items) {
        const keyNode = pair.key as Node | null;
        const key = isScalar(keyNode) ? String(keyNode.value) : undefined;
        if (key === undefined) {
          fail(ctx, 'type', path, keyNode, 'mapping keys must be scalars');
          continue;
        }
        const at = join(path, key);
        const keyLine = lineAt(ctx.counter, keyNode);
        if (keyLine !== undefined) ctx.lines.set(at, keyLine);
        if (ctx.patch && key === PATCH_KEY) {
          out[key] = isScalar(pair.value) ? String(pair.value.value) : undefined;
          continue;
        }
        const field = schema.kind === 'map' ? schema.of : schema.fields[key];
        if (!field) {
          fail(ctx, 'unknown-field', at, keyNode, `unknown field ${JSON.stringify(key)}`);
          continue;
        }
        const v = walk(pair.value, field, at, ctx);
        if (v !== undefined) out[key] = v;
      }
      return out;
    }
  }
}

/** unstructuredValue converts a free-form subtree; the yaml library throws on bad or excessive aliases inside it. */
function unstructuredValue(node: Node, path: string, ctx: WalkContext): unknown {
  // a mapping key that is itself a mapping or a list has no place in a config (Go's yaml.v3 cannot read
  // one into a map[string]…); the yaml library would only warn and turn it into a string
  let collectionKey: Node | undefined;
  visit(node, {
    Pair: (_, pair) => {
      if (isMap(pair.key) || isSeq(pair.key)) {
        collectionKey = pair.key;
        return visit.BREAK;
      }
      return undefined;
    },
  });
  if (collectionKey) return fail(ctx, 'yaml', path, collectionKey, 'mapping keys must be scalars');
  try {
    return node.toJS(ctx.yaml);
  } catch (e) {
    if (!(e instanceof ReferenceError)) throw e;
    return fail(ctx, 'yaml', path, node, e.message.split('\n')[0]!);
  }
}

const sourceOf = (node: Scalar): string => node.source ?? String(node.value);

function describe(node: Node): string {
  if (isMap(node)) return 'a mapping';
  if (isSeq(node)) return 'a list';
  if (isScalar(node)) return JSON.stringify(sourceOf(node));
  return 'a value';
}

// Go's yaml.v3 still reads YAML 1.1 booleans into bool fields, so configs written for it use them.
const truthy = new Set(['y', 'yes', 'on', 'true']);
const falsy = new Set(['n', 'no', 'off', 'false']);

function scalarBool(node: Node, path: string, ctx: WalkContext): boolean | undefined {
  if (isScalar(node)) {
    if (typeof node.value === 'boolean') return node.value;
    if (node.type === 'PLAIN') {
      const s = sourceOf(node).toLowerCase();
      if (truthy.has(s)) return true;
      if (falsy.has(s)) return false;
    }
  }
  return fail(ctx, 'type', path, node, `expected a boolean, got ${describe(node)}`);
}

// File modes are octal: upstream writes `0o644`, and hand-written configs use `0644` (YAML 1.1 octal).
function fileMode(node: Node, path: string, ctx: WalkContext): number | undefined {
  if (isScalar(node) && node.type === 'PLAIN') {
    const s = sourceOf(node);
    const oct = /^0o?([0-7]+)$/.exec(s);
    if (oct) return Number.parseInt(oct[1]!, 8);
    if (/^[1-9]\d*$/.test(s)) return Number(s);
  }
  return fail(ctx, 'type', path, node, `expected an octal file mode, got ${describe(node)}`);
}
