// k8s.ControlPlaneAuthorizationPolicyController (upstream's name string): AuthorizationConfig
// `authorization` (controlplane) from `cluster.apiServer.authorizationConfig` on a control-plane node:
// Node and RBAC first unless the config places them, none for an API server older than the file (1.29).

import { MachineConfig } from '../../resources/config/machine-config.js';
import {
  AUTHORIZATION_CONFIG_ID,
  type AuthorizationAuthorizersSpec,
  AuthorizationConfig,
  type AuthorizationConfigSpec,
} from '../../resources/k8s/index.js';
import type { Config } from '../../src/config/index.js';
import { transformController } from '../../src/cosi/controller/generic/index.js';
import { activeConfigMap } from '../config/active-config-map.js';
import { configOf } from '../config/config-of.js';
import { controlPlaneOf, imageOr } from './internal/control-plane.js';
import { supportsAuthorizationConfigFile, versionFromImageRef } from './internal/kube-version.js';

const NODE: AuthorizationAuthorizersSpec = { type: 'Node', name: 'node' };
const RBAC: AuthorizationAuthorizersSpec = { type: 'RBAC', name: 'rbac' };

/** authorizersOf puts Node first and RBAC second when the user's list lacks them, as upstream. */
export function authorizersOf(user: readonly AuthorizationAuthorizersSpec[]): AuthorizationAuthorizersSpec[] {
  if (user.length === 0) return [{ ...NODE }, { ...RBAC }];
  const out = user.map((a) => structuredClone(a));
  if (!out.some((a) => a.type === 'Node')) out.splice(0, 0, { ...NODE });
  if (!out.some((a) => a.type === 'RBAC')) out.splice(1, 0, { ...RBAC });
  return out;
}

export function authorizationConfigOf(cfg: Config): AuthorizationConfigSpec | undefined {
  const v1 = controlPlaneOf(cfg);
  if (!v1) return undefined;
  const image = imageOr(v1.cluster.apiServer?.image, 'registry.k8s.io/kube-apiserver');
  if (!supportsAuthorizationConfigFile(versionFromImageRef(image))) return { image, config: [] };
  const user = (v1.cluster.apiServer?.authorizationConfig ?? []).map((a) => ({
    type: a.type ?? '',
    name: a.name ?? '',
    ...(a.webhook ? { webhook: structuredClone(a.webhook) } : {}),
  }));
  return { image, config: authorizersOf(user) };
}

export const ControlPlaneAuthorizationController = transformController({
  name: 'k8s.ControlPlaneAuthorizationPolicyController',
  input: MachineConfig,
  output: AuthorizationConfig,
  mapOptional: activeConfigMap(AUTHORIZATION_CONFIG_ID, true),
  transform: (_rt, cfg, out) => {
    // the map let only a control plane's config through
    out.spec = authorizationConfigOf(configOf(cfg.spec))!;
  },
});
