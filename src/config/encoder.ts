// Re-encodes a Config in talosctl's layout: struct keys in upstream order, map keys sorted, 4-space indent.
import type { Config } from './container.js';
import { type ConfigDocument, V1ALPHA1 } from './document.js';
import { definitionOf } from './types/registry.js';
import type { Schema } from './types/schema.js';
import { v1alpha1Schema } from './types/v1alpha1/config.js';
import { emitDocument, Octal, sortKeys } from './yaml-emit.js';

/** encode writes every document, joined by `---` as talosctl does. */
export const encode = (cfg: Config): string => cfg.documents.map(encodeDocument).join('---\n');

export function encodeDocument(doc: ConfigDocument): string {
  return emitDocument(ordered(doc.spec, schemaOf(doc.kind)) as Record<string, unknown>);
}

export const schemaOf = (kind: string): Schema | undefined =>
  kind === V1ALPHA1 ? v1alpha1Schema : definitionOf(kind)?.schema;

/** ordered rebuilds a value with keys in the order talosctl writes them. */
export function ordered(value: unknown, schema: Schema | undefined): unknown {
  if (Array.isArray(value)) return value.map((v) => ordered(v, schema?.kind === 'list' ? schema.of : schema));
  if (typeof value !== 'object' || value === null) {
    return schema?.kind === 'filemode' && typeof value === 'number' ? new Octal(value) : value;
  }
  const obj = value as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  if (schema?.kind === 'struct') {
    for (const k of Object.keys(schema.fields))
      if (obj[k] !== undefined) out[k] = ordered(obj[k], schema.fields[k]);
    for (const k of Object.keys(obj)) if (!(k in schema.fields) && obj[k] !== undefined) out[k] = obj[k];
    return out;
  }
  // Go maps have no order, so yaml.v3 sorts their keys; unstructured values are Go maps too.
  const of = schema?.kind === 'map' ? schema.of : schema;
  for (const k of sortKeys(Object.keys(obj))) if (obj[k] !== undefined) out[k] = ordered(obj[k], of);
  return out;
}
