// Strategic merge of two values under a schema (upstream merge.Merge), with `$patch: delete` selectors.
import type { Schema } from '../types/schema.js';

export const PATCH_KEY = '$patch';
/** DELETE is what merging a `$patch: delete` selector yields: the caller drops the value. */
export const DELETE: unique symbol = Symbol('delete');

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
export const isDeleteSelector = (v: unknown): boolean => isObj(v) && v[PATCH_KEY] === 'delete';

/** merge returns left with right merged in; neither input is modified. */
export function merge(left: unknown, right: unknown, schema: Schema | undefined): unknown {
  if (isDeleteSelector(right)) return DELETE;
  if (right === undefined) return left;
  if (left === undefined) return strip(right);
  // unstructured values tagged merge:"replace" (auditPolicy) are swapped whole
  if (schema?.kind === 'any' && schema.replace) return strip(right);
  if (Array.isArray(left) && Array.isArray(right)) return mergeList(left, right, schema);
  if (isObj(left) && isObj(right)) {
    const out: Obj = { ...left };
    for (const [k, v] of Object.entries(right)) {
      if (k === PATCH_KEY) continue;
      const sub = schema?.kind === 'struct' ? schema.fields[k] : schema?.kind === 'map' ? schema.of : schema;
      const r = merge(out[k], v, sub);
      if (r === DELETE) delete out[k];
      else out[k] = r;
    }
    return out;
  }
  // Scalars: the zero value does not override, but an explicit boolean always does.
  if (right === '' || right === 0) return left;
  return right;
}

function mergeList(left: unknown[], right: unknown[], schema: Schema | undefined): unknown[] {
  const mode = schema?.kind === 'list' ? schema.merge : 'append';
  const of = schema?.kind === 'list' ? schema.of : schema;
  const key = typeof mode === 'object' ? mode.key : undefined;
  let out = [...left];
  const additions: unknown[] = [];
  for (const item of right) {
    if (isDeleteSelector(item)) {
      out = out.filter((l) => !selects(item as Obj, l, key));
      continue;
    }
    additions.push(item);
  }
  if (mode === 'replace') return additions.map(strip);
  for (const item of additions) {
    const k = key?.(item);
    const at = k === undefined ? -1 : out.findIndex((l) => key!(l) === k);
    if (at < 0) out.push(strip(item));
    else out[at] = merge(out[at], item, of);
  }
  return out;
}

/** selects tells whether a delete selector picks a list item: by the list's key, else by every field it names. */
function selects(
  selector: Obj,
  item: unknown,
  key: ((v: unknown) => string | undefined) | undefined,
): boolean {
  const fields = Object.fromEntries(Object.entries(selector).filter(([k]) => k !== PATCH_KEY));
  const k = key?.(fields);
  if (k !== undefined) return key!(item) === k;
  if (!isObj(item)) return false;
  return Object.entries(fields).every(([f, v]) => JSON.stringify(item[f]) === JSON.stringify(v));
}

/** strip removes directives from a value that is added rather than merged. */
export function strip(v: unknown): unknown {
  if (Array.isArray(v)) return v.filter((x) => !isDeleteSelector(x)).map(strip);
  if (!isObj(v)) return v;
  const out: Obj = {};
  for (const [k, x] of Object.entries(v)) if (k !== PATCH_KEY && !isDeleteSelector(x)) out[k] = strip(x);
  return out;
}
