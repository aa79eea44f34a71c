// k8s.ControlPlaneAdmissionControlController: AdmissionControlConfig `admission-control` (controlplane)
// from `cluster.apiServer.admissionControl` on a control-plane node, as upstream's.

import { MachineConfig } from '../../resources/config/machine-config.js';
import {
  ADMISSION_CONTROL_CONFIG_ID,
  AdmissionControlConfig,
  type AdmissionControlConfigSpec,
} from '../../resources/k8s/index.js';
import type { Config } from '../../src/config/index.js';
import { transformController } from '../../src/cosi/controller/generic/index.js';
import { activeConfigMap } from '../config/active-config-map.js';
import { configOf } from '../config/config-of.js';
import { controlPlaneOf } from './internal/control-plane.js';

export function admissionControlConfigOf(cfg: Config): AdmissionControlConfigSpec | undefined {
  const v1 = controlPlaneOf(cfg);
  if (!v1) return undefined;
  return {
    config: (v1.cluster.apiServer?.admissionControl ?? []).map((p) => ({
      name: p.name ?? '',
      configuration: structuredClone(p.configuration ?? {}),
    })),
  };
}

export const ControlPlaneAdmissionControlController = transformController({
  name: 'k8s.ControlPlaneAdmissionControlController',
  input: MachineConfig,
  output: AdmissionControlConfig,
  mapOptional: activeConfigMap(ADMISSION_CONTROL_CONFIG_ID, true),
  transform: (_rt, cfg, out) => {
    // the map let only a control plane's config through
    out.spec = admissionControlConfigOf(configOf(cfg.spec))!;
  },
});
