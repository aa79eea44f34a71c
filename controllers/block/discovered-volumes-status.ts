// block.DiscoveredVolumesStatusController: DiscoveredVolumesStatus, ready once the devices have settled
// and discovery has answered the full re-probe asked for at that moment, so that every device present by
// then has been probed: only after that may a volume not found be declared missing.
import {
  DISCOVERED_VOLUMES_STATUS_ID,
  DiscoveredVolumesStatus,
  DiscoveryRefreshRequest,
  DiscoveryRefreshStatus,
  REFRESH_ID,
} from '../../resources/block/index.js';
import { DEVICES_ID, DevicesStatus } from '../../resources/runtime/index.js';
import { defineController, input, output } from '../../src/cosi/controller/index.js';

export const DISCOVERED_VOLUMES_STATUS_CONTROLLER = 'block.DiscoveredVolumesStatusController';

/** DiscoveredVolumesStatusController asks for one re-probe once devices are ready and reports it done. */
export const DiscoveredVolumesStatusController = defineController({
  name: DISCOVERED_VOLUMES_STATUS_CONTROLLER,
  inputs: [input(DevicesStatus, { id: DEVICES_ID }), input(DiscoveryRefreshStatus, { id: REFRESH_ID })],
  outputs: [output(DiscoveredVolumesStatus, 'exclusive'), output(DiscoveryRefreshRequest, 'exclusive')],
  async run(rt, { signal }) {
    let requested: number | undefined;
    for await (const _ of rt.events(signal)) {
      const devicesReady = (await rt.getOrNull(DevicesStatus, DEVICES_ID))?.spec.ready === true;
      if (devicesReady && requested === undefined) {
        // udevd has settled: probe everything once more, and wait for discovery to say it has
        const req = await rt.modifyWithResult(DiscoveryRefreshRequest, REFRESH_ID, (s) => {
          s.request += 1;
        });
        requested = req.spec.request;
      }
      const answered = (await rt.getOrNull(DiscoveryRefreshStatus, REFRESH_ID))?.spec.request;
      if (discoveredVolumesReady(devicesReady, requested, answered))
        await rt.modify(DiscoveredVolumesStatus, DISCOVERED_VOLUMES_STATUS_ID, (s) => {
          s.ready = true;
        });
      rt.resetBackoff();
    }
  },
});

/** discoveredVolumesReady: devices settled, and discovery has answered this controller's request. */
export const discoveredVolumesReady = (
  devicesReady: boolean,
  requested: number | undefined,
  answered: number | undefined,
): boolean => devicesReady && requested !== undefined && answered === requested;
