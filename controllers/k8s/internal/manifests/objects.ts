// Small constructors for the objects the bootstrap manifest families share: RBAC bindings, roles and
// subjects, service accounts, config maps, and what upstream's DaemonSets have in common.
import {
  type ClusterRole,
  type ClusterRoleBinding,
  type ConfigMap,
  type EnvVar,
  type ObjectMeta,
  type PolicyRule,
  RBAC_GROUP,
  RBAC_V1,
  type ServiceAccount,
  type Subject,
  type Toleration,
} from './types.js';

export const KUBE_SYSTEM = 'kube-system';

export const clusterRoleBinding = (
  metadata: ObjectMeta,
  role: string,
  subjects: Subject[],
): ClusterRoleBinding => ({
  apiVersion: RBAC_V1,
  kind: 'ClusterRoleBinding',
  metadata,
  roleRef: { apiGroup: RBAC_GROUP, kind: 'ClusterRole', name: role },
  subjects,
});

export const clusterRole = (metadata: ObjectMeta, rules: PolicyRule[]): ClusterRole => ({
  apiVersion: RBAC_V1,
  kind: 'ClusterRole',
  metadata,
  rules,
});

/** group is an RBAC subject naming a group of users */
export const group = (name: string): Subject => ({ kind: 'Group', name, apiGroup: RBAC_GROUP });

/** serviceAccountSubject is an RBAC subject naming a kube-system service account */
export const serviceAccountSubject = (name: string): Subject => ({
  kind: 'ServiceAccount',
  name,
  namespace: KUBE_SYSTEM,
});

export const serviceAccount = (metadata: ObjectMeta): ServiceAccount => ({
  apiVersion: 'v1',
  kind: 'ServiceAccount',
  metadata,
});

export const configMap = (metadata: ObjectMeta, data: Record<string, string>): ConfigMap => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata,
  data,
});

/** fieldEnv is an environment variable read from the pod's own fields */
export const fieldEnv = (name: string, fieldPath: string): EnvVar => ({
  name,
  valueFrom: { fieldRef: { fieldPath } },
});

/** upstream's DaemonSets tolerate every NoSchedule and NoExecute taint */
export const TOLERATE_ALL: readonly Toleration[] = [
  { effect: 'NoSchedule', operator: 'Exists' },
  { effect: 'NoExecute', operator: 'Exists' },
];
