// block.DiscoveryController on a loop disk with a real GPT and real filesystems: every volume equals
// blkid's answer for it, a partition added later shows up with its GPT entry, a deleted one goes, a
// disk locked exclusively is probed once released. discoveredVolumesOf is checked on plain data.
import { closeSync, openSync } from 'node:fs';
import { describe, expect, it, onTestFinished } from 'vitest';
import { DevicesController } from '../../../controllers/block/devices.js';
import {
  DISCOVERY_CONTROLLER,
  DiscoveryController,
  discoveredVolumesOf,
  partitionsOf,
  RETRY_MAX_MS,
  retryDelay,
} from '../../../controllers/block/discovery.js';
import {
  type DeviceSpec,
  DiscoveredVolume,
  type DiscoveredVolumeSpec,
  DiscoveryRefreshRequest,
  DiscoveryRefreshStatus,
  REFRESH_ID,
} from '../../../resources/block/index.js';
import { assertNoResource, assertResource } from '../../../src/cosi/testing/assert-resources.js';
import type { DeviceProbe } from '../../../src/sys/block/probe/index.js';
import { flock, funlock } from '../../../src/sys/flock.js';
import {
  addPartition,
  announceChange,
  blkid,
  blockdev,
  deletePartition,
  gptDisk,
  run,
  startRuntime,
  stopOnFinish,
} from './block-env.js';

const dev = (over: Partial<DeviceSpec>): DeviceSpec => ({
  type: 'disk',
  major: 253,
  minor: 0,
  partitionName: '',
  partitionNumber: 0,
  devicePath: '/sys/devices/pci0000:00/0000:00:04.0/virtio2/block/vda',
  generation: 1,
  parent: '',
  secondaries: [],
  ...over,
});

const probe: DeviceProbe = {
  size: 2 * 2 ** 30,
  sectorSize: 512,
  ioSize: 512,
  signature: {
    name: 'gpt',
    uuid: 'a1b2c3d4-0000-4000-8000-000000000001',
    blockSize: 512,
    probedSize: 2147449344,
  },
  parts: [
    {
      index: 1,
      uuid: '11111111-2222-4333-8444-555555555555',
      type: '0fc63daf-8483-4772-8e79-3d69d8477de4',
      label: 'META',
      offset: 1 << 20,
      size: 1 << 20,
      signature: { name: 'talosmeta', probedSize: 512 << 10 },
    },
    {
      index: 3,
      uuid: '66666666-7777-4888-8999-aaaaaaaaaaaa',
      type: 'c12a7328-f81f-11d2-ba4b-00a0c93ec93b',
      label: 'EFI',
      offset: 2 << 20,
      size: 100 << 20,
      signature: undefined,
    },
  ],
};

describe('discoveredVolumesOf', () => {
  it('makes the disk volume and one per GPT entry that has a partition device', () => {
    const byId = new Map<string, DeviceSpec>([
      ['vda', dev({})],
      ['vda1', dev({ type: 'partition', parent: 'vda', partitionNumber: 1, devicePath: '/sys/x/vda/vda1' })],
      ['vdb1', dev({ type: 'partition', parent: 'vdb', partitionNumber: 3 })],
    ]);
    const out = discoveredVolumesOf('vda', byId.get('vda')!, probe, partitionsOf('vda', byId));
    expect(out.self).toMatchObject({
      devPath: '/dev/vda',
      type: 'disk',
      parent: '',
      parentDevPath: '',
      size: 2 * 2 ** 30,
      prettySize: '2.1 GB',
      name: 'gpt',
      uuid: 'a1b2c3d4-0000-4000-8000-000000000001',
      label: '',
      blockSize: 512,
      probedSize: 2147449344,
    });
    expect(out.self).not.toHaveProperty('partitionLabel');
    expect(out.parts).toEqual([
      {
        id: 'vda1',
        spec: {
          devPath: '/dev/vda1',
          type: 'partition',
          devicePath: '/sys/x/vda/vda1',
          parent: 'vda',
          parentDevPath: '/dev/vda',
          size: 1 << 20,
          prettySize: '1.0 MB',
          sectorSize: 512,
          ioSize: 512,
          name: 'talosmeta',
          uuid: '',
          label: '',
          blockSize: 0,
          filesystemBlockSize: 0,
          probedSize: 512 << 10,
          partitionUUID: '11111111-2222-4333-8444-555555555555',
          partitionType: '0fc63daf-8483-4772-8e79-3d69d8477de4',
          partitionLabel: 'META',
          partitionIndex: 1,
        },
      },
    ]);
    // entry 3 has no device of vda's (vdb1 is another disk's): it is pending
    expect(out.pending).toEqual([3]);
  });

  it('describes a partition probed alone by its device', () => {
    const part = dev({ type: 'partition', parent: 'vda', partitionNumber: 2 });
    const out = discoveredVolumesOf(
      'vda2',
      part,
      {
        ...probe,
        signature: { name: 'xfs', uuid: 'u', label: 'STATE', blockSize: 512, filesystemBlockSize: 4096 },
        parts: [],
      },
      new Map(),
    );
    expect(out.self).toMatchObject({
      type: 'partition',
      parent: 'vda',
      parentDevPath: '/dev/vda',
      name: 'xfs',
      label: 'STATE',
    });
    expect(out.parts).toEqual([]);
  });
});

describe('retryDelay', () => {
  it('doubles from 100 ms and stops at the cap', () => {
    expect([1, 2, 3, 4].map(retryDelay)).toEqual([100, 200, 400, 800]);
    expect(retryDelay(8)).toBe(RETRY_MAX_MS);
    expect(retryDelay(50)).toBe(RETRY_MAX_MS);
  });
});

/** expectAsBlkid checks a partition's volume against `blkid -p` of its device. */
function expectPartitionAsBlkid(spec: DiscoveredVolumeSpec, path: string): void {
  const t = blkid(path) ?? {};
  expect(spec.name).toBe(t.TYPE ?? '');
  expect(spec.uuid).toBe(t.UUID ?? '');
  expect(spec.label).toBe(t.LABEL ?? '');
  expect(spec.partitionUUID).toBe(t.PART_ENTRY_UUID);
  expect(spec.partitionType).toBe(t.PART_ENTRY_TYPE);
  expect(spec.partitionLabel).toBe(t.PART_ENTRY_NAME);
  expect(spec.partitionIndex).toBe(Number(t.PART_ENTRY_NUMBER));
  expect(spec.size).toBe(Number(t.PART_ENTRY_SIZE) * 512);
  expect(spec.size).toBe(blockdev('--getsize64', path));
}

describe('block.DiscoveryController', () => {
  it('discovers a GPT disk and its filesystems as blkid does, and follows partitions', async () => {
    const disk = await gptDisk();
    const env = startRuntime([DevicesController, DiscoveryController]);
    stopOnFinish(env);

    const pt = blkid(disk.path);
    await assertResource(env.state, DiscoveredVolume, disk.name, (r) => {
      expect(r.metadata.owner).toBe(DISCOVERY_CONTROLLER);
      expect(r.spec).toMatchObject({
        devPath: disk.path,
        type: 'disk',
        name: 'gpt',
        uuid: pt?.PTUUID,
        size: blockdev('--getsize64', disk.path),
        sectorSize: blockdev('--getss', disk.path),
        partitionLabel: '',
      });
    });
    for (const n of [1, 2, 3])
      await assertResource(env.state, DiscoveredVolume, disk.part(n), (r) => {
        expect(r.spec).toMatchObject({ type: 'partition', parent: disk.name, parentDevPath: disk.path });
        expectPartitionAsBlkid(r.spec, `/dev/${disk.part(n)}`);
      });
    const state = await assertResource(env.state, DiscoveredVolume, disk.part(2), (r) =>
      expect(r.spec).toMatchObject({ name: 'xfs', label: 'STATE', partitionLabel: 'STATE' }),
    );
    expect(state.spec.filesystemBlockSize).toBe(4096);
    await assertResource(env.state, DiscoveredVolume, disk.part(3), (r) =>
      expect(r.spec).toMatchObject({
        name: 'vfat',
        label: 'EFI',
        partitionType: 'c12a7328-f81f-11d2-ba4b-00a0c93ec93b',
      }),
    );

    // a partition added later: its GPT entry comes from the disk's probe
    await addPartition(disk, 4, 'EXTRA', 8);
    await assertResource(env.state, DiscoveredVolume, disk.part(4), (r) => {
      expect(r.spec).toMatchObject({ name: '', partitionLabel: 'EXTRA', partitionIndex: 4 });
      expectPartitionAsBlkid(r.spec, `/dev/${disk.part(4)}`);
    });
    // formatted, and announced as udevd's watch would: probed again
    run('mkfs.vfat', ['-n', 'LATER', `/dev/${disk.part(4)}`]);
    announceChange(disk.part(4));
    await assertResource(env.state, DiscoveredVolume, disk.part(4), (r) => {
      expect(r.spec).toMatchObject({ name: 'vfat', label: 'LATER', partitionLabel: 'EXTRA' });
      expectPartitionAsBlkid(r.spec, `/dev/${disk.part(4)}`);
    });
    deletePartition(disk, 4);
    await assertNoResource(env.state, DiscoveredVolume, disk.part(4));
  });

  it('waits for an exclusive holder of the disk, and re-probes everything on a refresh request', async () => {
    const disk = await gptDisk();
    // a writer holds the whole disk, as the installer and udev's convention have it
    const holder = openSync(disk.path, 'r');
    onTestFinished(() => closeSync(holder));
    await flock(holder, 'exclusive');
    const env = startRuntime([DevicesController, DiscoveryController]);
    stopOnFinish(env);
    // the partitions are probed under the disk's lock too: nothing is discovered while it is held
    await assertResource(env.state, DiscoveryRefreshStatus, REFRESH_ID, (r) =>
      expect(r.spec.request).toBe(0),
    );
    const found = await env.state.list(DiscoveredVolume.pointer(''));
    expect(found.filter((r) => r.metadata.id.startsWith(disk.name))).toEqual([]);
    funlock(holder);
    await assertResource(env.state, DiscoveredVolume, disk.part(2), (r) => expect(r.spec.name).toBe('xfs'));

    await env.state.create(DiscoveryRefreshRequest.new('runtime', REFRESH_ID, { request: 1 }));
    await assertResource(env.state, DiscoveryRefreshStatus, REFRESH_ID, (r) =>
      expect(r.spec.request).toBe(1),
    );
  });
});
