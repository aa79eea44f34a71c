// controllers/config: controllers that turn the machine config into the resources everyone reads.
// CONFIG_CONTROLLERS is the list machined registers.
import { MachineTypeController } from './machine-type.js';

export { configOf } from './config-of.js';
export { MachineTypeController, machineTypeOf } from './machine-type.js';

export const CONFIG_CONTROLLERS = [MachineTypeController] as const;
