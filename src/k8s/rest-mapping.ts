// From an object's apiVersion and kind to the REST path of its resource: the group and version parsed, the
// plural and scope looked up in the API server's discovery document for that group-version
// (`/api/v1`, `/apis/apps/v1`), as client-go's discovery RESTMapper does. The lookups are pure; the
// mapper caches one document per group-version and asks again once on a miss, for a CRD just added.
import type { KubeClient, KubeObject } from './client.js';
import { isNotFound, KubeError } from './errors.js';

export interface GroupVersionKind {
  readonly group: string;
  readonly version: string;
  readonly kind: string;
}

export interface RESTMapping {
  readonly gvk: GroupVersionKind;
  /** the plural, `daemonsets` */
  readonly resource: string;
  readonly namespaced: boolean;
}

/** APIResource is the part of a discovery document's entry the mapping reads. */
export interface APIResource {
  readonly name: string;
  readonly kind: string;
  readonly namespaced: boolean;
}

/** gvkOf splits `apps/v1` + `DaemonSet`; the core group has no prefix (`v1`). */
export function gvkOf(obj: KubeObject): GroupVersionKind {
  const apiVersion = typeof obj.apiVersion === 'string' ? obj.apiVersion : '';
  const kind = typeof obj.kind === 'string' ? obj.kind : '';
  const slash = apiVersion.indexOf('/');
  return slash < 0
    ? { group: '', version: apiVersion, kind }
    : { group: apiVersion.slice(0, slash), version: apiVersion.slice(slash + 1), kind };
}

/** groupVersionPath is where a group-version's discovery document and resources live. */
export const groupVersionPath = (group: string, version: string): string =>
  group ? `/apis/${group}/${version}` : `/api/${version}`;

/** findResource picks the kind's resource, skipping subresources (`deployments/scale` is also a Scale). */
export function findResource(resources: readonly APIResource[], kind: string): APIResource | undefined {
  return resources.find((r) => r.kind === kind && !r.name.includes('/'));
}

/** resourcePath is the path of one object (or of the collection without a name). */
export function resourcePath(m: RESTMapping, namespace: string | undefined, name?: string): string {
  const base = groupVersionPath(m.gvk.group, m.gvk.version);
  const scoped = m.namespaced ? `${base}/namespaces/${encodeURIComponent(namespace ?? '')}` : base;
  return `${scoped}/${m.resource}${name === undefined ? '' : `/${encodeURIComponent(name)}`}`;
}

export interface RESTMapper {
  mapping(gvk: GroupVersionKind, opts?: { signal?: AbortSignal | undefined }): Promise<RESTMapping>;
}

/** discoveryMapper maps kinds through the API server's discovery documents, cached for its lifetime. */
export function discoveryMapper(client: KubeClient): RESTMapper {
  const cache = new Map<string, readonly APIResource[] | null>();
  const documentOf = async (path: string, signal: AbortSignal | undefined) => {
    if (cache.has(path)) return { resources: cache.get(path)!, fresh: false };
    let resources: readonly APIResource[] | null;
    try {
      resources = ((await client.get(path, { signal })).resources as APIResource[] | undefined) ?? [];
    } catch (e) {
      // a group-version the server does not serve is a miss, not a failure
      if (!isNotFound(e)) throw e;
      resources = null;
    }
    cache.set(path, resources);
    return { resources, fresh: true };
  };
  return {
    async mapping(gvk, { signal } = {}) {
      const path = groupVersionPath(gvk.group, gvk.version);
      let doc = await documentOf(path, signal);
      let hit = doc.resources && findResource(doc.resources, gvk.kind);
      if (!hit && !doc.fresh) {
        cache.delete(path);
        doc = await documentOf(path, signal);
        hit = doc.resources && findResource(doc.resources, gvk.kind);
      }
      if (!hit) {
        const gv = gvk.group ? `${gvk.group}/${gvk.version}` : gvk.version;
        throw new KubeError('no-match', `no matches for kind ${JSON.stringify(gvk.kind)} in version ${gv}`);
      }
      return { gvk, resource: hit.name, namespaced: hit.namespaced };
    },
  };
}
