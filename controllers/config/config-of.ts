// Reading the MachineConfig resource as src/config's Config container.
import type { MachineConfigSpec } from '../../resources/config/machine-config.js';
import type { Config } from '../../src/config/index.js';

/**
 * configOf gives the spec its precise type. Only decoded configs are ever stored (the resource type
 * is structural because resources import nothing outside the COSI runtime).
 */
export const configOf = (spec: MachineConfigSpec): Config => spec as Config;
