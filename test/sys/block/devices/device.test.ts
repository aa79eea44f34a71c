import { describe, expect, it } from 'vitest';
import {
  type BlockDevice,
  blockDeviceOf,
  dmPartitionOf,
  parseUeventFile,
  type SysfsBlockFacts,
  sortDevices,
} from '../../../../src/sys/block/devices/device.js';
import { BlockError } from '../../../../src/sys/block/devices/errors.js';

// the attribute texts as the kernel writes them, newline and all
const disk = {
  removable: '0\n',
  events: '\n',
  logicalBlockSize: '512\n',
  physicalBlockSize: '4096\n',
  minimumIOSize: '4096\n',
  optimalIOSize: '0\n',
  rotational: '1\n',
};

function facts(over: Partial<SysfsBlockFacts> & Pick<SysfsBlockFacts, 'name' | 'devpath'>): SysfsBlockFacts {
  return {
    sysPath: `/sys${over.devpath}`,
    uevent: '',
    dev: '',
    size: '0\n',
    ro: '0\n',
    partition: '',
    start: '',
    disk,
    holders: [],
    slaves: [],
    dmName: '',
    dmUuid: '',
    slaveDmUuids: {},
    ...over,
  };
}

const vda = facts({
  name: 'vda',
  devpath: '/devices/pci0000:00/0000:00:02.0/virtio1/block/vda',
  uevent: 'MAJOR=254\nMINOR=0\nDEVNAME=vda\nDEVTYPE=disk\nDISKSEQ=9\n',
  dev: '254:0\n',
  size: '536870912\n',
  holders: ['vda2'],
});

const vda1 = facts({
  name: 'vda1',
  devpath: '/devices/pci0000:00/0000:00:02.0/virtio1/block/vda/vda1',
  uevent: 'MAJOR=254\nMINOR=1\nDEVNAME=vda1\nDEVTYPE=partition\nDISKSEQ=9\nPARTN=1\nPARTNAME=EFI\n',
  dev: '254:1\n',
  size: '204800\n',
  partition: '1\n',
  start: '2048\n',
});

describe('parseUeventFile', () => {
  it('reads KEY=VALUE lines, keeping = inside values and skipping blank lines', () => {
    expect(parseUeventFile('MAJOR=8\nPARTNAME=a=b\n\nDEVNAME=sda\n')).toEqual({
      MAJOR: '8',
      PARTNAME: 'a=b',
      DEVNAME: 'sda',
    });
  });
});

describe('blockDeviceOf', () => {
  it('types a whole disk: numbers, bytes, queue sizes, flags and its bus path', () => {
    const d = blockDeviceOf(vda);
    expect(d).toEqual({
      name: 'vda',
      devPath: '/dev/vda',
      devpath: '/devices/pci0000:00/0000:00:02.0/virtio1/block/vda',
      major: 254,
      minor: 0,
      diskSeq: 9,
      size: 536870912n * 512n,
      logicalSectorSize: 512,
      physicalSectorSize: 4096,
      minimumIOSize: 4096,
      optimalIOSize: 0,
      readonly: false,
      removable: false,
      rotational: true,
      cdrom: false,
      holders: ['vda2'],
      dm: undefined,
      type: 'disk',
      secondaries: [],
      busPath: '/pci0000:00/0000:00:02.0/virtio1',
    });
  });

  it('types a partition: its parent from the directory it sits in, number, label and start in bytes', () => {
    const p = blockDeviceOf(vda1);
    expect(p.type).toBe('partition');
    if (p.type !== 'partition') return;
    expect(p.parent).toBe('vda');
    expect(p.partitionNumber).toBe(1);
    expect(p.partitionName).toBe('EFI');
    expect(p.start).toBe(2048n * 512n);
    expect(p.size).toBe(100n << 20n);
    expect(p.physicalSectorSize).toBe(4096); // the disk's queue
  });

  it('takes major:minor from `dev` when the uevent file has none', () => {
    const d = blockDeviceOf({ ...vda, uevent: 'DEVNAME=vda\n' });
    expect([d.major, d.minor]).toEqual([254, 0]);
  });

  it('finds optical drives by the sr major and by the eject request only the CD-ROM layer reports', () => {
    const sr0 = facts({
      name: 'sr0',
      devpath: '/devices/pci0000:00/0000:00:01.1/ata2/host1/target1:0:0/1:0:0:0/block/sr0',
      uevent: 'MAJOR=11\nMINOR=0\nDEVNAME=sr0\nDEVTYPE=disk\n',
      disk: { ...disk, removable: '1\n', events: 'media_change eject_request\n' },
    });
    expect(blockDeviceOf(sr0)).toMatchObject({ cdrom: true, removable: true });
    const usbOptical = { ...sr0, uevent: 'MAJOR=8\nMINOR=16\nDEVNAME=sdb\nDEVTYPE=disk\n', name: 'sdb' };
    expect(blockDeviceOf(usbOptical).cdrom).toBe(true);
    const usbStick = { ...usbOptical, disk: { ...disk, removable: '1\n', events: 'media_change\n' } };
    expect(blockDeviceOf(usbStick).cdrom).toBe(false);
  });

  it('gives a dm-crypt volume its secondaries and device-mapper names', () => {
    const dm0 = facts({
      name: 'dm-0',
      devpath: '/devices/virtual/block/dm-0',
      uevent: 'MAJOR=253\nMINOR=0\nDEVNAME=dm-0\nDEVTYPE=disk\n',
      slaves: ['vda2'],
      dmName: 'luks-state\n',
      dmUuid: 'CRYPT-LUKS2-0123456789abcdef-luks-state\n',
    });
    expect(blockDeviceOf(dm0)).toMatchObject({
      type: 'disk',
      secondaries: ['vda2'],
      dm: { name: 'luks-state', uuid: 'CRYPT-LUKS2-0123456789abcdef-luks-state' },
      busPath: '/virtual',
    });
  });

  it('makes a kpartx partition map over a device-mapper disk a partition of that disk', () => {
    const map = facts({
      name: 'dm-1',
      devpath: '/devices/virtual/block/dm-1',
      uevent: 'MAJOR=253\nMINOR=1\nDEVNAME=dm-1\nDEVTYPE=disk\n',
      slaves: ['dm-0'],
      dmName: 'mpatha1\n',
      dmUuid: 'part3-mpath-3600a0b80\n',
      slaveDmUuids: { 'dm-0': 'mpath-3600a0b80\n' },
    });
    expect(blockDeviceOf(map)).toMatchObject({
      type: 'partition',
      parent: 'dm-0',
      partitionNumber: 3,
      start: undefined,
    });
    // over a loop (which carries kernel partitions of its own) it stays a disk, as upstream keeps it
    const overLoop = { ...map, slaves: ['loop0'], dmUuid: 'part1-devnode_7:0_Wh5pYvM', slaveDmUuids: {} };
    expect(blockDeviceOf(overLoop)).toMatchObject({ type: 'disk', secondaries: ['loop0'] });
  });

  it('refuses an attribute the kernel would not write, naming the device and the file', () => {
    const bad = { ...vda, size: 'lots\n' };
    expect(() => blockDeviceOf(bad)).toThrow(BlockError);
    expect(() => blockDeviceOf(bad)).toThrow(
      'vda: /sys/devices/pci0000:00/0000:00:02.0/virtio1/block/vda/size: not a sector count: "lots"',
    );
    try {
      blockDeviceOf({ ...vda1, partition: 'one\n' });
    } catch (e) {
      expect(e).toMatchObject({ code: 'malformed', device: 'vda1' });
      return;
    }
    throw new Error('a partition numbered "one" was accepted');
  });
});

describe('dmPartitionOf', () => {
  it('reads part<N>-<uuid> and nothing else', () => {
    expect(dmPartitionOf('part2-LVM-abc')).toEqual({ number: 2, parentUuid: 'LVM-abc' });
    expect(dmPartitionOf('part0-x')).toBeUndefined();
    expect(dmPartitionOf('CRYPT-LUKS2-abc')).toBeUndefined();
    expect(dmPartitionOf('')).toBeUndefined();
  });
});

describe('sortDevices', () => {
  it('orders disks by name as numbers read and puts partitions after their disk', () => {
    const named = (name: string, parent?: string, n = 0): BlockDevice =>
      parent
        ? ({ ...blockDeviceOf(vda1), name, parent, partitionNumber: n } as BlockDevice)
        : ({ ...blockDeviceOf(vda), name } as BlockDevice);
    const order = sortDevices([
      named('loop10'),
      named('loop2p10', 'loop2', 10),
      named('loop2'),
      named('loop2p2', 'loop2', 2),
      named('loop1'),
    ]).map((d) => d.name);
    expect(order).toEqual(['loop1', 'loop2', 'loop2p2', 'loop2p10', 'loop10']);
  });
});
