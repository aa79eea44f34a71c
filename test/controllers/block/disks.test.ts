// block.DisksController: a loop disk's Disk carries what blockdev and sysfs say of it; its partitions
// get none, and the Disk goes with the disk. diskSpecOf is checked on plain facts.
import { readFileSync, realpathSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DevicesController } from '../../../controllers/block/devices.js';
import { DISKS_CONTROLLER, DisksController, diskSpecOf } from '../../../controllers/block/disks.js';
import { Disk } from '../../../resources/block/index.js';
import { assertNoResource, assertResource } from '../../../src/cosi/testing/assert-resources.js';
import { lsblk } from '../../sys/block/devices/loop-fixture.js';
import { blockdev, gptDisk, startRuntime, stopOnFinish } from './block-env.js';

const props = {
  model: 'QEMU HARDDISK',
  serial: 'QM00001',
  modalias: 'scsi:t-0x00',
  wwid: 't10.ATA     QEMU HARDDISK',
  subSystem: '/sys/class/block',
  transport: 'sata',
  rotational: true,
};

describe('diskSpecOf', () => {
  it('fills a Disk as upstream does, with the pretty size', () => {
    const spec = diskSpecOf({
      id: 'sda',
      size: 10737418240,
      ioSize: 512,
      sectorSize: 512,
      readonly: false,
      cdrom: false,
      busPath: '/pci0000:00/0000:00:1f.2/ata1/host0/target0:0:0/0:0:0:0',
      secondaries: [],
      props,
    });
    expect(spec).toEqual({
      devPath: '/dev/sda',
      size: 10737418240,
      prettySize: '11 GB',
      ioSize: 512,
      sectorSize: 512,
      readonly: false,
      cdrom: false,
      model: 'QEMU HARDDISK',
      firmwareVersion: '',
      serial: 'QM00001',
      modalias: 'scsi:t-0x00',
      wwid: 't10.ATA     QEMU HARDDISK',
      uuid: '',
      busPath: '/pci0000:00/0000:00:1f.2/ata1/host0/target0:0:0/0:0:0:0',
      subSystem: '/sys/class/block',
      transport: 'sata',
      rotational: true,
      secondaryDisks: [],
      symlinks: [],
    });
  });

  it('names a secondary partition by its disk', () => {
    const spec = diskSpecOf(
      {
        id: 'dm-0',
        size: 1 << 20,
        ioSize: 4096,
        sectorSize: 4096,
        readonly: true,
        cdrom: false,
        busPath: '/virtual',
        secondaries: ['vda3', 'vdb'],
        props: { ...props, transport: '' },
      },
      (id) => (id === 'vda3' ? 'vda' : undefined),
    );
    expect(spec.secondaryDisks).toEqual(['vda', 'vdb']);
    expect(spec.prettySize).toBe('1.0 MB');
    expect(spec.readonly).toBe(true);
  });
});

describe('block.DisksController', () => {
  it('describes a loop disk as blockdev and sysfs do, and drops it when the disk goes', async () => {
    const disk = await gptDisk();
    const env = startRuntime([DevicesController, DisksController]);
    stopOnFinish(env);

    const [whole] = lsblk(disk.path);
    const size = blockdev('--getsize64', disk.path);
    const ioopt = blockdev('--getioopt', disk.path);
    const iomin = blockdev('--getiomin', disk.path);
    await assertResource(env.state, Disk, disk.name, (r) => {
      expect(r.metadata.owner).toBe(DISKS_CONTROLLER);
      expect(r.spec).toMatchObject({
        devPath: disk.path,
        size,
        prettySize: '419 MB',
        sectorSize: blockdev('--getss', disk.path),
        ioSize: ioopt > 0 ? ioopt : iomin,
        readonly: whole?.ro,
        cdrom: false,
        rotational: whole?.rota,
        // a loop device hangs off no bus: sysfs keeps it under /sys/devices/virtual
        busPath: '/virtual',
        subSystem: realpathSync(`/sys/class/block/${disk.name}/subsystem`),
        transport: '',
        model: '',
        serial: '',
      });
      expect(r.spec.size).toBe(Number(whole?.size));
      expect(r.spec.rotational).toBe(
        readFileSync(`/sys/block/${disk.name}/queue/rotational`, 'utf8').trim() === '1',
      );
    });
    // partitions are not disks
    await assertNoResource(env.state, Disk, disk.part(1));

    disk.loop.detach();
    // a cleared loop device has no size, and a removed one no Device: either way, no Disk
    await assertNoResource(env.state, Disk, disk.name);
  });
});
