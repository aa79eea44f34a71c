// AuthorizationConfigs.kubernetes.talos.dev (`authorization`, controlplane): the API server's authorizers
// (Node and RBAC first unless the config places them) and its image, whose version picks the file's
// apiVersion. YAML only, upstream's keys.
import { defineResource, type ResourceOf } from '../../src/cosi/resource/typed.js';
import { K8S_CONTROL_PLANE_NAMESPACE } from './namespace.js';

export const AUTHORIZATION_CONFIG_ID = 'authorization';

/** AuthorizationAuthorizersSpec is one authorizer: its type (Node, RBAC, Webhook), name and webhook. */
export interface AuthorizationAuthorizersSpec {
  type: string;
  name: string;
  webhook?: Record<string, unknown>;
}

export interface AuthorizationConfigSpec {
  image: string;
  config: AuthorizationAuthorizersSpec[];
}

export const AuthorizationConfig = defineResource<AuthorizationConfigSpec>({
  type: 'AuthorizationConfigs.kubernetes.talos.dev',
  defaultNamespace: K8S_CONTROL_PLANE_NAMESPACE,
  empty: () => ({ image: '', config: [] }),
  copy: (s) => structuredClone(s),
  fromYAML: (v) => ({ image: '', config: [], ...((v ?? {}) as Partial<AuthorizationConfigSpec>) }),
});
export type AuthorizationConfig = ResourceOf<typeof AuthorizationConfig>;
