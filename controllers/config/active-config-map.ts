// The map of upstream's transform controllers that read the machine config (secrets' roots, the control
// plane's configs): the active config gives the one output `id`, or nothing — another config id, a config
// without machine or cluster sections, or, for what only a control plane has, a worker.
import { MACHINE_CONFIG_ID, type MachineConfigSpec } from '../../resources/config/machine-config.js';
import { isControlPlane } from '../../resources/config/machine-type.js';
import { accessors, v1alpha1Of } from '../../src/config/index.js';
import type { TypedResource } from '../../src/cosi/resource/typed.js';
import { configOf } from './config-of.js';

export const activeConfigMap =
  (id: string, requireControlPlane: boolean) =>
  (res: TypedResource<MachineConfigSpec>): string | undefined => {
    if (res.metadata.id !== MACHINE_CONFIG_ID) return undefined;
    const cfg = configOf(res.spec);
    const v1 = v1alpha1Of(cfg);
    if (!v1?.machine || !v1.cluster) return undefined;
    if (requireControlPlane && !isControlPlane(accessors(cfg).machineType())) return undefined;
    return id;
  };
