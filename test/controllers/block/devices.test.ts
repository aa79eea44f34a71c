// block.DevicesController against the kernel: a loop disk and its partitions appear as Devices with
// sysfs's numbers, a partition added later appears and a deleted one goes (uevents, no polling), and a
// change uevent moves the generation. deviceSpecOf is checked on plain records.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  DEVICES_CONTROLLER,
  DevicesController,
  deviceSpecOf,
  idOf,
} from '../../../controllers/block/devices.js';
import { Device } from '../../../resources/block/index.js';
import { assertNoResource, assertResource } from '../../../src/cosi/testing/assert-resources.js';
import type { DiskDevice, PartitionDevice } from '../../../src/sys/block/devices/index.js';
import {
  addPartition,
  announceChange,
  deletePartition,
  gptDisk,
  startRuntime,
  stopOnFinish,
} from './block-env.js';

const base = {
  devPath: '/dev/vda',
  devpath: '/devices/pci0000:00/0000:00:04.0/virtio2/block/vda',
  major: 253,
  minor: 0,
  diskSeq: 1,
  size: 1n << 30n,
  logicalSectorSize: 512,
  physicalSectorSize: 512,
  minimumIOSize: 512,
  optimalIOSize: 0,
  readonly: false,
  removable: false,
  rotational: true,
  cdrom: false,
  holders: [],
  dm: undefined,
};

describe('deviceSpecOf', () => {
  it('fills a disk as upstream does from its uevent', () => {
    const d: DiskDevice = { ...base, name: 'vda', type: 'disk', secondaries: ['sdb1'], busPath: '/pci' };
    expect(idOf(d)).toBe('vda');
    expect(deviceSpecOf(d, 3)).toEqual({
      type: 'disk',
      major: 253,
      minor: 0,
      partitionName: '',
      partitionNumber: 0,
      devicePath: '/sys/devices/pci0000:00/0000:00:04.0/virtio2/block/vda',
      generation: 3,
      parent: '',
      secondaries: ['sdb1'],
    });
  });

  it('fills a partition with its disk, number and GPT name', () => {
    const p: PartitionDevice = {
      ...base,
      name: 'vda2',
      devPath: '/dev/vda2',
      devpath: `${base.devpath}/vda2`,
      minor: 2,
      type: 'partition',
      parent: 'vda',
      partitionNumber: 2,
      partitionName: 'STATE',
      start: 2048n * 512n,
    };
    expect(deviceSpecOf(p, 1)).toMatchObject({
      type: 'partition',
      partitionName: 'STATE',
      partitionNumber: 2,
      parent: 'vda',
      secondaries: [],
      devicePath: `/sys${base.devpath}/vda2`,
    });
  });
});

/** partName is PARTNAME as the kernel states it ('' when the partitions were added through BLKPG, as partx does). */
const partName = (name: string) =>
  /^PARTNAME=(.*)$/m.exec(readFileSync(`/sys/class/block/${name}/uevent`, 'utf8'))?.[1] ?? '';

/** sysfsNumbers reads major:minor as the kernel shows them. */
const sysfsNumbers = (name: string) => {
  const [major, minor] = readFileSync(`/sys/class/block/${name}/dev`, 'utf8').trim().split(':').map(Number);
  return { major, minor };
};

describe('block.DevicesController', () => {
  it('mirrors a loop disk and its partitions, and follows partitions added and deleted', async () => {
    const disk = await gptDisk();
    const env = startRuntime([DevicesController]);
    stopOnFinish(env);

    const first = await assertResource(env.state, Device, disk.name, (r) => {
      expect(r.metadata.owner).toBe(DEVICES_CONTROLLER);
      expect(r.spec).toMatchObject({ type: 'disk', parent: '', ...sysfsNumbers(disk.name) });
      expect(r.spec.devicePath).toBe(`/sys/devices/virtual/block/${disk.name}`);
      expect(r.spec.generation).toBeGreaterThan(0);
    });
    for (const n of [1, 2, 3])
      await assertResource(env.state, Device, disk.part(n), (r) =>
        expect(r.spec).toMatchObject({
          type: 'partition',
          parent: disk.name,
          partitionNumber: n,
          partitionName: partName(disk.part(n)),
          devicePath: `/sys/devices/virtual/block/${disk.name}/${disk.part(n)}`,
          ...sysfsNumbers(disk.part(n)),
        }),
      );

    // a change uevent (what udevd sends after a writer closes the disk) moves the generation
    announceChange(disk.name);
    await assertResource(env.state, Device, disk.name, (r) =>
      expect(r.spec.generation).toBeGreaterThan(first.spec.generation),
    );

    await addPartition(disk, 4, 'EXTRA', 8);
    await assertResource(env.state, Device, disk.part(4), (r) =>
      expect(r.spec).toMatchObject({ type: 'partition', parent: disk.name, partitionNumber: 4 }),
    );
    deletePartition(disk, 4);
    await assertNoResource(env.state, Device, disk.part(4));

    // detaching the loop removes its partitions from the kernel, and with them their Devices
    disk.loop.detach();
    await assertNoResource(env.state, Device, disk.part(1));
  });
});
