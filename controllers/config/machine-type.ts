// config.MachineTypeController: the node's role, from the active machine config.
import {
  MACHINE_CONFIG_ID,
  MachineConfig,
  type MachineConfigSpec,
} from '../../resources/config/machine-config.js';
import { MACHINE_TYPE_ID, type MachineRole, MachineType } from '../../resources/config/machine-type.js';
import { accessors } from '../../src/config/index.js';
import { defineController, input, output } from '../../src/cosi/controller/index.js';
import { configOf } from './config-of.js';

/** MachineTypeController publishes the node's role from the active machine config. */
export const MachineTypeController = defineController({
  name: 'config.MachineTypeController',
  inputs: [input(MachineConfig, { id: MACHINE_CONFIG_ID, kind: 'weak' })],
  outputs: [output(MachineType, 'exclusive')],
  async run(rt, { signal }) {
    for await (const _ of rt.events(signal)) {
      const cfg = await rt.getOrNull(MachineConfig, MACHINE_CONFIG_ID, { signal }); // absent = not yet, not an error
      await rt.modify(
        MachineType,
        MACHINE_TYPE_ID,
        (spec) => {
          spec.type = machineTypeOf(cfg?.spec);
        },
        { signal },
      );
      rt.resetBackoff();
    }
  },
});

/** machineTypeOf is the role a config gives the node; no config (maintenance mode) is `unknown`. */
export const machineTypeOf = (cfg?: MachineConfigSpec): MachineRole =>
  cfg ? accessors(configOf(cfg)).machineType() : 'unknown';
