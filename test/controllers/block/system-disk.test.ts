// block.SystemDiskController: the system disk is the parent of the META partition; META on a loop
// device does not count (a Talos image attached there is not the node's disk), as upstream.
import { describe, expect, it } from 'vitest';
import {
  SYSTEM_DISK_CONTROLLER,
  SystemDiskController,
  systemDiskOf,
} from '../../../controllers/block/system-disk.js';
import {
  BLOCK_NAMESPACE,
  DiscoveredVolume,
  type DiscoveredVolumeSpec,
  SYSTEM_DISK_ID,
  SystemDisk,
} from '../../../resources/block/index.js';
import { assertNoResource, assertResource } from '../../../src/cosi/testing/assert-resources.js';
import { startRuntime, stopOnFinish } from './block-env.js';

const volume = (parent: string, partitionLabel: string): DiscoveredVolumeSpec => ({
  ...DiscoveredVolume.codec.empty(),
  type: 'partition',
  parent,
  parentDevPath: `/dev/${parent}`,
  partitionLabel,
});

describe('systemDiskOf', () => {
  it('picks the parent of the META partition', () => {
    expect(systemDiskOf([volume('sda', 'EFI'), volume('sda', 'META'), volume('sdb', 'DATA')])).toEqual({
      diskID: 'sda',
      devPath: '/dev/sda',
    });
  });

  it('passes over loop devices, and finds none without META', () => {
    expect(systemDiskOf([volume('loop0', 'META')])).toBeUndefined();
    expect(systemDiskOf([volume('loop3', 'META'), volume('nvme0n1', 'META')])).toEqual({
      diskID: 'nvme0n1',
      devPath: '/dev/nvme0n1',
    });
    expect(systemDiskOf([volume('vda', 'STATE')])).toBeUndefined();
    expect(systemDiskOf([])).toBeUndefined();
  });
});

describe('block.SystemDiskController', () => {
  it('publishes the system disk while a META partition is discovered, and withdraws it after', async () => {
    const env = startRuntime([SystemDiskController]);
    stopOnFinish(env);
    await env.state.create(DiscoveredVolume.new(BLOCK_NAMESPACE, 'loop0p1', volume('loop0', 'META')));
    await env.state.create(DiscoveredVolume.new(BLOCK_NAMESPACE, 'vda1', volume('vda', 'META')));
    await assertResource(env.state, SystemDisk, SYSTEM_DISK_ID, (r) => {
      expect(r.metadata.owner).toBe(SYSTEM_DISK_CONTROLLER);
      expect(r.spec).toEqual({ diskID: 'vda', devPath: '/dev/vda' });
    });
    await env.state.destroy(DiscoveredVolume.pointer('vda1'));
    await assertNoResource(env.state, SystemDisk, SYSTEM_DISK_ID);
  });
});
