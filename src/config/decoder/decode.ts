// Decodes a multi-document YAML stream into documents: legacy v1alpha1 plus typed `apiVersion`/`kind` ones.
import { isMap, isScalar, LineCounter, type Node, parseAllDocuments, type YAMLMap } from 'yaml';
import { type Config, containerErrors } from '../container.js';
import { type ConfigDocument, type Kind, V1ALPHA1 } from '../document.js';
import { ConfigError, ConfigErrors } from '../errors.js';
import { definitionOf } from '../types/registry.js';
import type { StructSchema } from '../types/schema.js';
import { v1alpha1Markers, v1alpha1Schema } from '../types/v1alpha1/config.js';
import { MAX_CONFIG_BYTES, MAX_DOCUMENTS, tooLarge } from './limits.js';
import { aliasBudget, lineAt, type WalkContext, walk, yamlDetail } from './walk.js';

export interface DecodeOptions {
  /** decode a patch: documents may be partial and carry `$patch: delete` */
  readonly patch?: boolean;
}

export interface Decoded {
  readonly documents: ConfigDocument[];
  readonly errors: ConfigError[];
}

/** decode parses a config stream and throws ConfigErrors listing every problem with its line. */
export function decode(source: string, opts: DecodeOptions = {}): Config {
  const { documents, errors } = decodeDocuments(source, opts);
  if (!opts.patch) errors.push(...containerErrors(documents));
  if (errors.length > 0) throw new ConfigErrors(errors);
  return { documents };
}

/** decodeDocuments decodes what it can and returns the problems instead of throwing. */
export function decodeDocuments(source: string, opts: DecodeOptions = {}): Decoded {
  const documents: ConfigDocument[] = [];
  const errors: ConfigError[] = [];
  const limit = (detail: string) => {
    errors.push(new ConfigError('limit', 'the configuration', '', undefined, detail));
    return { documents, errors };
  };
  const bytes = Buffer.byteLength(source);
  if (bytes > MAX_CONFIG_BYTES) return limit(tooLarge(bytes));
  const counter = new LineCounter();
  const parsed = parseAllDocuments(source, { lineCounter: counter, uniqueKeys: true });
  if (!Array.isArray(parsed)) return { documents, errors };
  if (parsed.length > MAX_DOCUMENTS)
    return limit(`has ${parsed.length} documents, over the limit of ${MAX_DOCUMENTS}`);
  const aliases = aliasBudget();
  parsed.forEach((yaml, index) => {
    const where = `document ${index + 1}`;
    for (const e of yaml.errors) {
      errors.push(new ConfigError('yaml', where, '', e.linePos?.[0].line, yamlDetail(e)));
    }
    if (yaml.errors.length > 0) return;
    const root = yaml.contents as Node | null;
    if (root === null || (isScalar(root) && root.value === null)) return; // an empty document, e.g. a leading ---
    if (!isMap(root)) {
      errors.push(new ConfigError('type', where, '', lineAt(counter, root), 'document must be a mapping'));
      return;
    }
    const top = topLevel(root);
    const ctxFor = (document: string): WalkContext => ({
      document,
      yaml,
      counter,
      lines: new Map([['', lineAt(counter, root) ?? 1]]),
      errors,
      patch: opts.patch ?? false,
      aliases,
    });
    const kindNode = top.get('kind');
    if (kindNode === undefined) {
      if (!v1alpha1Markers.some((k) => top.has(k)) && !(opts.patch && top.has('$patch'))) {
        errors.push(new ConfigError('missing-kind', where, '', lineAt(counter, root), 'missing kind'));
        return;
      }
      const ctx = ctxFor(V1ALPHA1);
      const spec = walk(root, v1alpha1Schema, '', ctx) as ConfigDocument<'v1alpha1'>['spec'];
      documents.push({ kind: V1ALPHA1, spec, lines: ctx.lines });
      return;
    }
    const kind = isScalar(kindNode) ? String(kindNode.value) : '';
    const line = lineAt(counter, kindNode);
    const def = definitionOf(kind);
    if (!def) {
      errors.push(
        new ConfigError('unknown-kind', where, 'kind', line, `unknown document kind ${JSON.stringify(kind)}`),
      );
      return;
    }
    const apiVersion = top.get('apiVersion');
    if (apiVersion === undefined) {
      errors.push(new ConfigError('missing-api-version', kind, '', line, 'missing apiVersion'));
      return;
    }
    const version = isScalar(apiVersion) ? String(apiVersion.value) : '';
    if (version !== 'v1alpha1') {
      const at = lineAt(counter, apiVersion);
      errors.push(
        new ConfigError(
          'unknown-kind',
          kind,
          'apiVersion',
          at,
          `unsupported apiVersion ${JSON.stringify(version)}`,
        ),
      );
      return;
    }
    const nameNode = top.get('name');
    const name = def.named && isScalar(nameNode) ? String(nameNode.value) : undefined;
    const ctx = ctxFor(name === undefined ? kind : `${kind}/${name}`);
    const spec = walk(root, def.schema as StructSchema, '', ctx) as ConfigDocument['spec'];
    documents.push({ kind: kind as Kind, ...(name === undefined ? {} : { name }), spec, lines: ctx.lines });
  });
  return { documents, errors };
}

function topLevel(root: YAMLMap): Map<string, Node | null> {
  const out = new Map<string, Node | null>();
  for (const p of root.items) if (isScalar(p.key)) out.set(String(p.key.value), p.value as Node | null);
  return out;
}
