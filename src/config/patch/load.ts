// Reads a patch: a strategic merge patch (config documents) or, failing that, an RFC 6902 JSON patch.
import { parse } from 'yaml';
import { decodeDocuments } from '../decoder/decode.js';
import type { ConfigDocument } from '../document.js';
import { ConfigError, ConfigErrors } from '../errors.js';
import { type JsonPatchOperation, parseOperations } from './json6902.js';

export type Patch =
  | { readonly type: 'strategic'; readonly documents: readonly ConfigDocument[] }
  | { readonly type: 'json6902'; readonly operations: readonly JsonPatchOperation[] };

/** loadPatch tries a strategic merge patch first, then a JSON patch written as JSON or a YAML list. */
export function loadPatch(text: string): Patch {
  const strategic = decodeDocuments(text, { patch: true });
  if (strategic.errors.length === 0 && strategic.documents.length > 0)
    return { type: 'strategic', documents: strategic.documents };
  let value: unknown;
  try {
    value = parse(text);
  } catch {
    value = undefined;
  }
  if (Array.isArray(value)) {
    try {
      return { type: 'json6902', operations: parseOperations(value) };
    } catch (e) {
      throw new ConfigErrors([new ConfigError('patch', 'patch', '', undefined, (e as Error).message)]);
    }
  }
  if (strategic.errors.length > 0) throw new ConfigErrors(strategic.errors);
  throw new ConfigErrors([new ConfigError('patch', 'patch', '', undefined, 'patch is empty')]);
}
