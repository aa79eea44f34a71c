// SecretStatuses.kubernetes.talos.dev (`static-pods`, controlplane): the control plane's secrets are on
// disk for its static pods; the version changes with them, and the pods' annotation with it.
import { defineResource, type ResourceOf } from '../../src/cosi/resource/typed.js';
import { K8S_CONTROL_PLANE_NAMESPACE } from './namespace.js';
import { type ReadyVersionSpec, readyVersionFields } from './ready-version.js';

export const STATIC_POD_SECRETS_STATIC_POD_ID = 'static-pods';

export type SecretsStatusSpec = ReadyVersionSpec;

export const SecretsStatus = defineResource<SecretsStatusSpec>({
  type: 'SecretStatuses.kubernetes.talos.dev',
  defaultNamespace: K8S_CONTROL_PLANE_NAMESPACE,
  ...readyVersionFields,
});
export type SecretsStatus = ResourceOf<typeof SecretsStatus>;
