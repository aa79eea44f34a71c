// Disk properties as go-blockdevice reads them: the pure transport rules, and a real loop disk's
// properties against its sysfs entry.
import { readFileSync, realpathSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  readDiskProperties,
  scsiHostOf,
  transportByName,
  transportOfProcName,
} from '../../../../src/sys/block/devices/index.js';
import { attachLoop, image, tempDir } from './loop-fixture.js';

describe('transport rules', () => {
  it('names NVMe, virtio-blk and MMC disks by their kernel names', () => {
    expect(transportByName('nvme0n1')).toBe('nvme');
    expect(transportByName('vda')).toBe('virtio');
    expect(transportByName('mmcblk0')).toBe('mmc');
    expect(transportByName('sda')).toBeUndefined();
  });

  it('reads the SCSI host of an address and the transport of its driver', () => {
    expect(scsiHostOf('2:0:0:0')).toBe(2);
    expect(scsiHostOf('virtio2')).toBeUndefined();
    expect(scsiHostOf(':0:0')).toBeUndefined();
    expect(transportOfProcName('ahci')).toBe('sata');
    expect(transportOfProcName('ata_piix')).toBe('ata');
    expect(transportOfProcName('virtio_scsi')).toBe('virtio');
    expect(transportOfProcName('mpt3sas')).toBe('');
  });
});

describe('readDiskProperties', () => {
  it('reads a loop disk as sysfs shows it: no device, the block class, no transport', async () => {
    const loop = attachLoop(image(tempDir('props'), 1 << 20));
    const p = await readDiskProperties(loop.name);
    expect(p).toEqual({
      model: '',
      serial: '',
      modalias: '',
      wwid: '',
      subSystem: realpathSync(`/sys/class/block/${loop.name}/subsystem`),
      transport: '',
      rotational: readFileSync(`/sys/class/block/${loop.name}/queue/rotational`, 'utf8').trim() === '1',
    });
    expect(p.subSystem).toBe('/sys/class/block');
  });
});
