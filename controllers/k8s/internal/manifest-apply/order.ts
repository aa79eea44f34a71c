// The order the bootstrap objects are applied in, as upstream's: namespaces first (by name), then
// CustomResourceDefinitions (by name), then everything else as the manifests list it, so an object never
// arrives before the namespace or the type it needs.
import type { K8sObject } from '../../../../resources/k8s/index.js';
import { gvkOf } from '../../../../src/k8s/index.js';

export function isNamespace(obj: K8sObject): boolean {
  const gvk = gvkOf(obj);
  return gvk.kind === 'Namespace' && gvk.version === 'v1';
}

export function isCRD(obj: K8sObject): boolean {
  const gvk = gvkOf(obj);
  return gvk.kind === 'CustomResourceDefinition' && gvk.group === 'apiextensions.k8s.io';
}

const nameOf = (obj: K8sObject): string => String((obj.metadata as K8sObject | undefined)?.name ?? '');
const rank = (obj: K8sObject): number => (isNamespace(obj) ? 0 : isCRD(obj) ? 1 : 2);

/** applyOrder sorts a copy of the list (stable: the rest keep their order). */
export function applyOrder(objects: readonly K8sObject[]): K8sObject[] {
  return [...objects].sort((a, b) => {
    const d = rank(a) - rank(b);
    if (d !== 0 || rank(a) === 2) return d;
    const [x, y] = [nameOf(a), nameOf(b)];
    return x < y ? -1 : x > y ? 1 : 0;
  });
}
