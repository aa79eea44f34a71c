// The block controllers are PID 1's alone: a node given the network wiring (PID 1) runs them, a
// container node (no wiring) never does, so it cannot probe its host's disks or mount its host's media.
import { describe, expect, it } from 'vitest';
import { EventBus } from '../../../src/machined/events/index.js';
import { blockControllers } from '../../../src/machined/node/block-controllers.js';
import { loadControllers } from '../../../src/machined/node/controllers.js';

const BLOCK = [
  'runtime.DevicesStatusController',
  'block.DevicesController',
  'block.DisksController',
  'block.DiscoveryController',
  'block.DiscoveredVolumesStatusController',
  'block.SystemDiskController',
  'block.VolumeConfigController',
  'block.UserVolumeConfigController',
  'block.VolumeManagerController',
  'block.MountController',
  'cluster.NodeIdentityController',
  // Keel's own: the components layer, mounted from the boot medium discovery finds
  'runtime.ComponentsLayerController',
];

describe('block controllers of a node', () => {
  it('are upstream’s discovery, volume and mount controllers, by upstream’s names, and the layer’s', async () => {
    expect((await blockControllers()).map((c) => c.name)).toEqual(BLOCK);
  });

  it('run on PID 1 and never in container mode', async () => {
    const names = async (opts: Parameters<typeof loadControllers>[1]) =>
      (await loadControllers(new EventBus(), opts)).map((c) => c.name);
    const pid1 = await names({ network: { cmdline: '' } });
    expect(pid1).toEqual(expect.arrayContaining(BLOCK));
    const container = await names({});
    expect(container.filter((n) => BLOCK.includes(n))).toEqual([]);
    expect(container.length).toBeGreaterThan(0);
    // asked for explicitly, or refused explicitly
    expect(await names({ block: true })).toEqual(expect.arrayContaining(BLOCK));
    expect(
      (await names({ network: { cmdline: '' }, block: false })).filter((n) => BLOCK.includes(n)),
    ).toEqual([]);
  });
});
