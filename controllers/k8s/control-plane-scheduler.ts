// k8s.ControlPlaneSchedulerController: SchedulerConfig `kube-scheduler` (controlplane) from the machine
// config on a control-plane node, as upstream's: whether it runs here, the image, the user's
// KubeSchedulerConfiguration, extra arguments, volumes, environment and resources.

import { MachineConfig } from '../../resources/config/machine-config.js';
import { SCHEDULER_ID, SchedulerConfig, type SchedulerConfigSpec } from '../../resources/k8s/index.js';
import type { Config } from '../../src/config/index.js';
import { transformController } from '../../src/cosi/controller/generic/index.js';
import { activeConfigMap } from '../config/active-config-map.js';
import { configOf } from '../config/config-of.js';
import {
  controlPlaneOf,
  extraArgsOf,
  extraVolumesOf,
  imageOr,
  resourcesOf,
} from './internal/control-plane.js';

export function schedulerConfigOf(cfg: Config): SchedulerConfigSpec | undefined {
  const v1 = controlPlaneOf(cfg);
  if (!v1) return undefined;
  const c = v1.cluster.scheduler;
  return {
    enabled: v1.machine.controlPlane?.scheduler?.disabled !== true,
    image: imageOr(c?.image, 'registry.k8s.io/kube-scheduler'),
    extraArgs: extraArgsOf(c),
    extraVolumes: extraVolumesOf(c),
    environmentVariables: { ...(c?.env ?? {}) },
    resources: resourcesOf(c),
    config: structuredClone(c?.config ?? {}),
  };
}

export const ControlPlaneSchedulerController = transformController({
  name: 'k8s.ControlPlaneSchedulerController',
  input: MachineConfig,
  output: SchedulerConfig,
  mapOptional: activeConfigMap(SCHEDULER_ID, true),
  transform: (_rt, cfg, out) => {
    // the map let only a control plane's config through
    out.spec = schedulerConfigOf(configOf(cfg.spec))!;
  },
});
