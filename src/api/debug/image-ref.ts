// Image references as containerd and upstream's Pull read them: Docker's normalization (docker.io,
// library/, :latest), and finding a reference among a namespace's local images by name or by digest.
import type { LocalImage } from './deps.js';

/** normalizeRef: `busybox` → `docker.io/library/busybox:latest`; a name with a registry keeps it. */
export function normalizeRef(ref: string): string {
  const slash = ref.indexOf('/');
  const first = slash < 0 ? '' : ref.slice(0, slash);
  const hasDomain = first.includes('.') || first.includes(':') || first === 'localhost';
  let named = hasDomain ? ref : `docker.io/${slash < 0 ? 'library/' : ''}${ref}`;
  const path = named.slice(named.indexOf('/') + 1);
  if (!path.includes(':') && !path.includes('@')) named += ':latest';
  return named;
}

/** repository: the reference without its tag and digest. */
export function repository(ref: string): string {
  const at = ref.indexOf('@');
  const noDigest = at < 0 ? ref : ref.slice(0, at);
  const colon = noDigest.lastIndexOf(':');
  return colon > noDigest.lastIndexOf('/') ? noDigest.slice(0, colon) : noDigest;
}

/**
 * findImage: the local image a reference names: a record of that name (as given or normalized), else for
 * `repo@digest` (what Pull answers) a record of that repository whose target is that digest.
 */
export function findImage(ref: string, images: readonly LocalImage[]): LocalImage | undefined {
  const names = new Set([ref, normalizeRef(ref)]);
  const byName = images.find((i) => names.has(i.name));
  if (byName) return byName;
  const at = ref.indexOf('@');
  if (at < 0) return undefined;
  const digest = ref.slice(at + 1);
  const repo = repository(normalizeRef(ref));
  return images.find((i) => i.digest === digest && repository(normalizeRef(i.name)) === repo);
}

/** pulledName: upstream's Pull answer, the reference pinned to its digest unless it already is. */
export const pulledName = (ref: string, image: LocalImage): string => {
  const normal = normalizeRef(ref);
  return normal.includes('@') ? normal : `${repository(normal)}@${image.digest}`;
};
