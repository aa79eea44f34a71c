// One apply pass over the ordered bootstrap objects, as upstream's: an object in the inventory is skipped;
// one already in the cluster joins the inventory untouched; any other is stamped with the inventory
// annotation and server-side applied with upstream's field manager. A malformed object (no such kind, or
// refused as invalid) is recorded and the pass goes on; anything else (the server gone) ends the pass.
import type { K8sObject } from '../../../../resources/k8s/index.js';
import {
  gvkOf,
  isBadRequest,
  isInvalid,
  isMethodNotSupported,
  isNoMatch,
  isNotFound,
  type KubeClient,
  type RESTMapper,
  resourcePath,
} from '../../../../src/k8s/index.js';
import { FIELD_MANAGER, INVENTORY_ANNOTATION, INVENTORY_NAME } from './constants.js';
import type { ApplyFailure } from './errors.js';
import { inventoryKey, objectName } from './inventory-key.js';

export interface ApplyPass {
  /** the objects created in this pass, by objectName */
  readonly created: string[];
  readonly failures: ApplyFailure[];
}

export interface ApplyObjectsOptions {
  readonly signal?: AbortSignal | undefined;
}

/**
 * applyObjects applies what the inventory lacks, adding each object it finds or creates to `inventory`
 * as it goes (so the caller can write it even when the pass ends early).
 */
export async function applyObjects(
  client: KubeClient,
  mapper: RESTMapper,
  objects: readonly K8sObject[],
  inventory: Set<string>,
  { signal }: ApplyObjectsOptions = {},
): Promise<ApplyPass> {
  const pass: ApplyPass = { created: [], failures: [] };
  for (const original of objects) {
    const name = objectName(original);
    const key = inventoryKey(original);
    if (inventory.has(key)) continue;
    let mapping: Awaited<ReturnType<RESTMapper['mapping']>>;
    try {
      mapping = await mapper.mapping(gvkOf(original), { signal });
    } catch (e) {
      if (!isNoMatch(e) && !isNotFound(e) && !isInvalid(e)) throw e;
      pass.failures.push({ object: name, error: e });
      continue;
    }
    const obj = structuredClone(original);
    obj.metadata ??= {};
    const meta = obj.metadata as K8sObject;
    // a namespaced object without a namespace goes to `default`, as kubectl would put it
    if (mapping.namespaced && !meta.namespace) meta.namespace = 'default';
    const path = resourcePath(mapping, meta.namespace as string | undefined, String(meta.name ?? ''));
    try {
      await client.get(path, { signal });
      // already there (made by hand, or before the inventory existed): adopt it without touching it
      inventory.add(key);
      continue;
    } catch (e) {
      if (!isNotFound(e)) throw e;
    }
    meta.annotations ??= {};
    const annotations = meta.annotations as Record<string, string>;
    const owner = annotations[INVENTORY_ANNOTATION];
    if (owner !== undefined && owner !== INVENTORY_NAME) {
      pass.failures.push({ object: name, error: new Error('unexpected foreign inventory annotation') });
      continue;
    }
    annotations[INVENTORY_ANNOTATION] = INVENTORY_NAME;
    try {
      await client.apply(path, obj, { fieldManager: FIELD_MANAGER, signal });
    } catch (e) {
      if (!isMethodNotSupported(e) && !isBadRequest(e) && !isInvalid(e)) throw e;
      pass.failures.push({ object: name, error: e });
      continue;
    }
    pass.created.push(name);
    inventory.add(key);
  }
  return pass;
}
