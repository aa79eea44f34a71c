// Decodes a one-document YAML file (secrets bundle, talosconfig) against a schema, with line numbers.
import { LineCounter, parseDocument } from 'yaml';
import { ConfigError, ConfigErrors } from '../errors.js';
import type { Schema } from '../types/schema.js';
import { aliasBudget, walk, yamlDetail } from './walk.js';

/** decodeSingle returns the shaped value and the line of every field, or throws ConfigErrors. */
export function decodeSingle(
  source: string,
  schema: Schema,
  document: string,
): { value: unknown; lines: Map<string, number> } {
  const counter = new LineCounter();
  const yaml = parseDocument(source, { lineCounter: counter, uniqueKeys: true });
  const errors = yaml.errors.map(
    (e) => new ConfigError('yaml', document, '', e.linePos?.[0].line, yamlDetail(e)),
  );
  if (errors.length > 0) throw new ConfigErrors(errors);
  const lines = new Map<string, number>();
  const value = walk(yaml.contents, schema, '', {
    document,
    yaml,
    counter,
    lines,
    errors,
    patch: false,
    aliases: aliasBudget(),
  });
  if (errors.length > 0) throw new ConfigErrors(errors);
  return { value: value ?? {}, lines };
}
