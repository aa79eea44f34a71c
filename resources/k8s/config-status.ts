// ConfigStatuses.kubernetes.talos.dev (`static-pods`, controlplane): the control plane's config files
// (admission, audit, authorization, scheduler) are on disk for its static pods; the version changes with
// them, and the pods' annotation with it. Upstream names its column "Secrets Version" too.
import { defineResource, type ResourceOf } from '../../src/cosi/resource/typed.js';
import { K8S_CONTROL_PLANE_NAMESPACE } from './namespace.js';
import { type ReadyVersionSpec, readyVersionFields } from './ready-version.js';

export const CONFIG_STATUS_STATIC_POD_ID = 'static-pods';

export type ConfigStatusSpec = ReadyVersionSpec;

export const ConfigStatus = defineResource<ConfigStatusSpec>({
  type: 'ConfigStatuses.kubernetes.talos.dev',
  defaultNamespace: K8S_CONTROL_PLANE_NAMESPACE,
  ...readyVersionFields,
});
export type ConfigStatus = ResourceOf<typeof ConfigStatus>;
