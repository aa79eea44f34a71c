// k8s.ControlPlaneControllerManagerController: ControllerManagerConfig `kube-controller-manager`
// (controlplane) from the machine config on a control-plane node, as upstream's: whether it runs here, the
// image, the pod and service ranges, and the user's extra arguments, volumes, environment and resources.
import { MachineConfig } from '../../resources/config/machine-config.js';
import {
  CONTROLLER_MANAGER_ID,
  ControllerManagerConfig,
  type ControllerManagerConfigSpec,
} from '../../resources/k8s/index.js';
import type { Config } from '../../src/config/index.js';
import { transformController } from '../../src/cosi/controller/generic/index.js';
import { activeConfigMap } from '../config/active-config-map.js';
import { configOf } from '../config/config-of.js';
import {
  cloudProviderOf,
  controlPlaneOf,
  extraArgsOf,
  extraVolumesOf,
  imageOr,
  podCIDRsOf,
  resourcesOf,
  serviceCIDRsOf,
} from './internal/control-plane.js';

export function controllerManagerConfigOf(cfg: Config): ControllerManagerConfigSpec | undefined {
  const v1 = controlPlaneOf(cfg);
  if (!v1) return undefined;
  const c = v1.cluster.controllerManager;
  return {
    enabled: v1.machine.controlPlane?.controllerManager?.disabled !== true,
    image: imageOr(c?.image, 'registry.k8s.io/kube-controller-manager'),
    cloudProvider: cloudProviderOf(v1),
    podCIDRs: podCIDRsOf(v1),
    serviceCIDRs: serviceCIDRsOf(v1),
    extraArgs: extraArgsOf(c),
    extraVolumes: extraVolumesOf(c),
    environmentVariables: { ...(c?.env ?? {}) },
    resources: resourcesOf(c),
  };
}

export const ControlPlaneControllerManagerController = transformController({
  name: 'k8s.ControlPlaneControllerManagerController',
  input: MachineConfig,
  output: ControllerManagerConfig,
  mapOptional: activeConfigMap(CONTROLLER_MANAGER_ID, true),
  transform: (_rt, cfg, out) => {
    // the map let only a control plane's config through
    out.spec = controllerManagerConfigOf(configOf(cfg.spec))!;
  },
});
