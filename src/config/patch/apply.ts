// Applies patches to a Config and re-decodes the result, so a patch cannot smuggle in a bad shape.
import type { Config } from '../container.js';
import { decode } from '../decoder/decode.js';
import { type ConfigDocument, label, V1ALPHA1 } from '../document.js';
import { encode, schemaOf } from '../encoder.js';
import { ConfigError, ConfigErrors } from '../errors.js';
import { applyJsonPatch, type JsonPatchOperation } from './json6902.js';
import type { Patch } from './load.js';
import { DELETE, isDeleteSelector, merge, PATCH_KEY, strip } from './merge.js';

const patchError = (doc: string, message: string) =>
  new ConfigErrors([new ConfigError('patch', doc, '', undefined, message)]);

/** applyPatches applies patches in order; back-to-back JSON patches act as one. */
export function applyPatches(cfg: Config, patches: readonly Patch[]): Config {
  let docs = [...cfg.documents];
  for (const p of coalesce(patches)) {
    docs = p.type === 'strategic' ? applyStrategic(docs, p.documents) : applyJson(docs, p.operations);
  }
  return decode(encode({ documents: docs }));
}

/** coalesce joins runs of JSON patches into one, so a run fails or succeeds as a whole. */
function coalesce(patches: readonly Patch[]): Patch[] {
  const out: Patch[] = [];
  for (const p of patches) {
    const last = out.at(-1);
    if (p.type === 'json6902' && last?.type === 'json6902')
      out[out.length - 1] = { type: 'json6902', operations: [...last.operations, ...p.operations] };
    else out.push(p);
  }
  return out;
}

function applyStrategic(docs: ConfigDocument[], patch: readonly ConfigDocument[]): ConfigDocument[] {
  const out = [...docs];
  for (const p of patch) {
    const at = out.findIndex((d) => d.kind === p.kind && d.name === p.name);
    if (isDeleteSelector(p.spec)) {
      if (p.kind === V1ALPHA1) throw patchError(V1ALPHA1, 'deleting the v1alpha1 document is not allowed');
      if (at < 0) throw patchError(label(p), 'document to delete was not found');
      out.splice(at, 1);
      continue;
    }
    if (at < 0) {
      out.push({ ...p, spec: strip(p.spec) as ConfigDocument['spec'] });
      continue;
    }
    const merged = merge(out[at]!.spec, p.spec, schemaOf(p.kind));
    // a selector that leaves only the header behind deletes the whole typed document
    const emptied = p.kind !== V1ALPHA1 && hasSelector(p.spec) && onlyHeader(merged);
    if (emptied || merged === DELETE) out.splice(at, 1);
    else out[at] = { ...out[at]!, spec: merged as ConfigDocument['spec'] };
  }
  return out;
}

function applyJson(docs: ConfigDocument[], ops: readonly JsonPatchOperation[]): ConfigDocument[] {
  if (docs.length !== 1 || docs[0]!.kind !== V1ALPHA1)
    throw patchError('patch', 'JSON6902 patches are not supported for multi-document machine configuration');
  try {
    return [{ ...docs[0]!, spec: applyJsonPatch(docs[0]!.spec, ops) as ConfigDocument['spec'] }];
  } catch (e) {
    throw patchError(V1ALPHA1, (e as Error).message);
  }
}

const hasSelector = (v: unknown): boolean =>
  typeof v === 'object' && v !== null && (PATCH_KEY in v || Object.values(v).some(hasSelector));

const onlyHeader = (v: unknown): boolean =>
  typeof v === 'object' &&
  v !== null &&
  Object.keys(v).every((k) => ['apiVersion', 'kind', 'name'].includes(k));
