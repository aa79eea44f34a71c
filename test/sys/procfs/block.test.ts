import { describe, expect, it } from 'vitest';
import { type BlockFacts, busPath, diskOf, diskType, isRamDisk } from '../../../src/sys/procfs/index.js';

const facts = (over: Partial<BlockFacts>): BlockFacts => ({
  name: 'sda',
  dev: '8:0',
  sectors: 2048n,
  readonly: false,
  rotational: false,
  sysPath: '/sys/devices/pci0000:00/0000:00:1f.2/ata1/host0/target0:0:0/0:0:0:0/block/sda',
  bus: 'scsi',
  model: 'QEMU HARDDISK',
  serial: 'QM00001',
  wwid: '',
  modalias: 'scsi:t-0x00',
  cardName: '',
  subsystem: '/sys/class/block',
  ...over,
});

describe('diskType', () => {
  it.each([
    [{ dev: '11:0', name: 'sr0' }, 'CD'],
    [{ name: 'nvme0n1', bus: 'nvme' }, 'NVME'],
    [{ name: 'mmcblk0', bus: 'mmc' }, 'SD'],
    [{ rotational: true }, 'HDD'],
    [{ rotational: false }, 'SSD'],
    [{ name: 'loop0', dev: '7:0', bus: '' }, 'UNKNOWN'],
  ] as const)('%j → %s', (over, want) => {
    expect(diskType(facts(over))).toBe(want);
  });
});

describe('busPath', () => {
  it.each([
    ['/sys/devices/pci0000:00/0000:00:02.0/virtio1/block/vda', '/pci0000:00/0000:00:02.0/virtio1'],
    ['/sys/devices/virtual/block/loop0', '/virtual'],
    ['/elsewhere/block/x', ''],
  ])('%s → %j', (p, want) => {
    expect(busPath(p)).toBe(want);
  });
});

describe('diskOf', () => {
  it('sizes in bytes and names the device node', () => {
    expect(diskOf(facts({}))).toMatchObject({ deviceName: '/dev/sda', size: 2048n * 512n, type: 'SSD' });
  });
  it('recognises RAM disks by major 1', () => {
    expect(isRamDisk({ dev: '1:0' })).toBe(true);
    expect(isRamDisk({ dev: '8:0' })).toBe(false);
  });
});
