// Config patches: strategic merge (documents matched by kind/name, keyed lists, `$patch: delete`)
// and RFC 6902 JSON patches. Pure: a patch yields a new Config and never touches the input.
export { applyPatches } from './apply.js';
export { applyJsonPatch, JsonPatchError, type JsonPatchOperation } from './json6902.js';
export { loadPatch, type Patch } from './load.js';
export { merge } from './merge.js';
