// An object's key in the inventory ConfigMap, as the cli-utils ObjMetadata string upstream stores:
// `<namespace>_<name>_<group>_<kind>`, a colon in an RBAC object's name written `__` (a ConfigMap key
// cannot hold one). Taken before the namespace is defaulted, as upstream takes it.
import type { K8sObject } from '../../../../resources/k8s/index.js';
import { gvkOf } from '../../../../src/k8s/index.js';

const RBAC_KINDS = new Set(['Role', 'ClusterRole', 'RoleBinding', 'ClusterRoleBinding']);

export function inventoryKey(obj: K8sObject): string {
  const { group, kind } = gvkOf(obj);
  const meta = (obj.metadata ?? {}) as K8sObject;
  const namespace = String(meta.namespace ?? '');
  let name = String(meta.name ?? '');
  if (group === 'rbac.authorization.k8s.io' && RBAC_KINDS.has(kind)) name = name.replaceAll(':', '__');
  return `${namespace}_${name}_${group}_${kind}`;
}

/** objectName is how upstream names an object in its log and errors: `group/version/kind/name`. */
export function objectName(obj: K8sObject): string {
  const { group, version, kind } = gvkOf(obj);
  return `${group}/${version}/${kind}/${String((obj.metadata as K8sObject | undefined)?.name ?? '')}`;
}
