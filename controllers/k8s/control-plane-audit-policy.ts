// k8s.ControlPlaneAuditPolicyController: AuditPolicyConfig `audit-policy` (controlplane) from
// `cluster.apiServer.auditPolicy` on a control-plane node, else upstream's default (Metadata for all).

import { MachineConfig } from '../../resources/config/machine-config.js';
import {
  AUDIT_POLICY_CONFIG_ID,
  AuditPolicyConfig,
  type AuditPolicyConfigSpec,
} from '../../resources/k8s/index.js';
import { defaultAuditPolicy } from '../../src/config/generate/policies.js';
import type { Config } from '../../src/config/index.js';
import { transformController } from '../../src/cosi/controller/generic/index.js';
import { activeConfigMap } from '../config/active-config-map.js';
import { configOf } from '../config/config-of.js';
import { controlPlaneOf } from './internal/control-plane.js';

export function auditPolicyConfigOf(cfg: Config): AuditPolicyConfigSpec | undefined {
  const v1 = controlPlaneOf(cfg);
  if (!v1) return undefined;
  const policy = v1.cluster.apiServer?.auditPolicy;
  return {
    config: policy && Object.keys(policy).length > 0 ? structuredClone(policy) : defaultAuditPolicy(),
  };
}

export const ControlPlaneAuditPolicyController = transformController({
  name: 'k8s.ControlPlaneAuditPolicyController',
  input: MachineConfig,
  output: AuditPolicyConfig,
  mapOptional: activeConfigMap(AUDIT_POLICY_CONFIG_ID, true),
  transform: (_rt, cfg, out) => {
    // the map let only a control plane's config through
    out.spec = auditPolicyConfigOf(configOf(cfg.spec))!;
  },
});
