// machined as a service of its own, as upstream lists it: the machine API's handlers and the controller
// runtime run inside this process for its whole life, so the service runs until it is stopped, and it is
// healthy while the state those handlers serve from answers.
import { MACHINE_STATUS_ID, MachineStatus, RUNTIME_NAMESPACE } from '../../../resources/runtime/index.js';
import type { State } from '../../cosi/state/state.js';
import { inProcessRunner, type ServiceDefinition } from '../services/index.js';

export const MACHINED_SERVICE = 'machined';

export function machinedService(state: State): ServiceDefinition {
  return {
    id: MACHINED_SERVICE,
    health: {
      check: async (signal) => {
        await state.get(MachineStatus.pointer(MACHINE_STATUS_ID, RUNTIME_NAMESPACE), { signal });
      },
    },
    runner: () =>
      inProcessRunner(
        MACHINED_SERVICE,
        ({ signal }) =>
          new Promise<void>((resolve) => {
            if (signal.aborted) return resolve();
            signal.addEventListener('abort', () => resolve(), { once: true });
          }),
      ),
  };
}
