// AuditPolicyConfigs.kubernetes.talos.dev (`audit-policy`, controlplane): the API server's audit policy,
// the machine config's or upstream's default. YAML only, upstream's keys.
import { defineResource, type ResourceOf } from '../../src/cosi/resource/typed.js';
import { K8S_CONTROL_PLANE_NAMESPACE } from './namespace.js';

export const AUDIT_POLICY_CONFIG_ID = 'audit-policy';

export interface AuditPolicyConfigSpec {
  config: Record<string, unknown>;
}

export const AuditPolicyConfig = defineResource<AuditPolicyConfigSpec>({
  type: 'AuditPolicyConfigs.kubernetes.talos.dev',
  defaultNamespace: K8S_CONTROL_PLANE_NAMESPACE,
  empty: () => ({ config: {} }),
  copy: (s) => structuredClone(s),
  fromYAML: (v) => ({ config: {}, ...((v ?? {}) as Partial<AuditPolicyConfigSpec>) }),
});
export type AuditPolicyConfig = ResourceOf<typeof AuditPolicyConfig>;
