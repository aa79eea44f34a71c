// ControllerManagerConfigs.kubernetes.talos.dev (`kube-controller-manager`, controlplane): what the machine
// config says of the controller manager — the input of its static pod. YAML only, upstream's keys.
import { defineResource, type ResourceOf } from '../../src/cosi/resource/typed.js';
import type { ArgValues, ExtraVolume, Resources } from './component.js';
import { K8S_CONTROL_PLANE_NAMESPACE } from './namespace.js';

export const CONTROLLER_MANAGER_ID = 'kube-controller-manager';

export interface ControllerManagerConfigSpec {
  enabled: boolean;
  image: string;
  cloudProvider: string;
  podCIDRs: string[];
  serviceCIDRs: string[];
  extraArgs: Record<string, ArgValues>;
  extraVolumes: ExtraVolume[];
  environmentVariables: Record<string, string>;
  resources: Resources;
}

const controllerManagerConfigZero = (): ControllerManagerConfigSpec => ({
  enabled: false,
  image: '',
  cloudProvider: '',
  podCIDRs: [],
  serviceCIDRs: [],
  extraArgs: {},
  extraVolumes: [],
  environmentVariables: {},
  resources: { requests: {} },
});

export const ControllerManagerConfig = defineResource<ControllerManagerConfigSpec>({
  type: 'ControllerManagerConfigs.kubernetes.talos.dev',
  defaultNamespace: K8S_CONTROL_PLANE_NAMESPACE,
  empty: controllerManagerConfigZero,
  copy: (s) => structuredClone(s),
  fromYAML: (v) => ({ ...controllerManagerConfigZero(), ...((v ?? {}) as object) }),
});
export type ControllerManagerConfig = ResourceOf<typeof ControllerManagerConfig>;
