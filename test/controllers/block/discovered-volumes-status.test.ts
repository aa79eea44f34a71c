// block.DiscoveredVolumesStatusController: ready only once devices have settled and discovery has
// answered the re-probe asked for then; run with the real DiscoveryController on in-memory state.
import { describe, expect, it } from 'vitest';
import {
  DISCOVERED_VOLUMES_STATUS_CONTROLLER,
  DiscoveredVolumesStatusController,
  discoveredVolumesReady,
} from '../../../controllers/block/discovered-volumes-status.js';
import { DiscoveryController } from '../../../controllers/block/discovery.js';
import {
  DISCOVERED_VOLUMES_STATUS_ID,
  DiscoveredVolumesStatus,
  DiscoveryRefreshRequest,
  DiscoveryRefreshStatus,
  REFRESH_ID,
} from '../../../resources/block/index.js';
import { DEVICES_ID, DevicesStatus } from '../../../resources/runtime/index.js';
import { assertResource } from '../../../src/cosi/testing/assert-resources.js';
import { startRuntime, stopOnFinish } from './block-env.js';

describe('discoveredVolumesReady', () => {
  it('needs devices ready and the request answered', () => {
    expect(discoveredVolumesReady(false, 1, 1)).toBe(false);
    expect(discoveredVolumesReady(true, undefined, 0)).toBe(false);
    expect(discoveredVolumesReady(true, 2, 1)).toBe(false);
    expect(discoveredVolumesReady(true, 2, 2)).toBe(true);
  });
});

describe('block.DiscoveredVolumesStatusController', () => {
  it('asks discovery for a re-probe once devices are ready, and reports it done', async () => {
    const env = startRuntime([DiscoveredVolumesStatusController, DiscoveryController]);
    stopOnFinish(env);
    // discovery has answered nothing yet: its status says request 0
    await assertResource(env.state, DiscoveryRefreshStatus, REFRESH_ID, (r) =>
      expect(r.spec.request).toBe(0),
    );
    expect(await env.state.list(DiscoveredVolumesStatus.pointer(''))).toEqual([]);

    await env.state.create(DevicesStatus.new('runtime', DEVICES_ID, { ready: true }));
    await assertResource(env.state, DiscoveryRefreshRequest, REFRESH_ID, (r) => {
      expect(r.metadata.owner).toBe(DISCOVERED_VOLUMES_STATUS_CONTROLLER);
      expect(r.spec.request).toBe(1);
    });
    await assertResource(env.state, DiscoveryRefreshStatus, REFRESH_ID, (r) =>
      expect(r.spec.request).toBe(1),
    );
    await assertResource(env.state, DiscoveredVolumesStatus, DISCOVERED_VOLUMES_STATUS_ID, (r) => {
      expect(r.metadata.owner).toBe(DISCOVERED_VOLUMES_STATUS_CONTROLLER);
      expect(r.spec.ready).toBe(true);
    });
  });
});
