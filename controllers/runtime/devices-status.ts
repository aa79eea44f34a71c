// runtime.DevicesStatusController: DevicesStatus, ready once udevd runs and is healthy (its health check
// waits for the event queue to drain), as upstream decides that the node's devices have settled.
import { DEVICES_ID, DevicesStatus } from '../../resources/runtime/index.js';
import { Service, type ServiceStateSpec } from '../../resources/v1alpha1/index.js';
import { defineController, input, output } from '../../src/cosi/controller/index.js';

export const DEVICES_STATUS_CONTROLLER = 'runtime.DevicesStatusController';
export const UDEVD = 'udevd';

/** DevicesStatusController publishes DevicesStatus from the udevd service's state. */
export const DevicesStatusController = defineController({
  name: DEVICES_STATUS_CONTROLLER,
  inputs: [input(Service, { id: UDEVD })],
  outputs: [output(DevicesStatus, 'exclusive')],
  async run(rt, { signal }) {
    for await (const _ of rt.events(signal)) {
      const udevd = await rt.getOrNull(Service, UDEVD);
      // once settled, devices stay ready: a later udevd restart does not take the volumes back
      if (devicesSettled(udevd?.spec))
        await rt.modify(DevicesStatus, DEVICES_ID, (s) => {
          s.ready = true;
        });
      rt.resetBackoff();
    }
  },
});

/** devicesSettled: udevd runs and its last health check (the event queue drained) passed. */
export const devicesSettled = (udevd: ServiceStateSpec | undefined): boolean =>
  udevd?.running === true && udevd.healthy === true;
