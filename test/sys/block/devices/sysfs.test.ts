// Reading block devices from sysfs: a tree made in a temp dir (disks, partitions, dm-crypt, a kpartx map,
// an optical drive, a device gone mid-listing), then the kernel's own tree for loop devices, with lsblk
// and partx as the judges of size, sector sizes, flags, parents, numbers and starts.
import { symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { BlockDevice, PartitionDevice } from '../../../../src/sys/block/devices/device.js';
import { listBlockDevices, readBlockDevice } from '../../../../src/sys/block/devices/sysfs.js';
import { LO_FLAGS } from '../../../../src/sys/ioctl-loop.js';
import { fakeSysfs, queue } from './fake-sysfs.js';
import { attachLoop, image, lsblk, partitionedLoop, run, tempDir } from './loop-fixture.js';

const VDA = '/devices/pci0000:00/0000:00:02.0/virtio1/block/vda';

function tree(): string {
  const root = tempDir('sysfs');
  fakeSysfs(root, [
    {
      devpath: VDA,
      files: {
        uevent: 'MAJOR=254\nMINOR=0\nDEVNAME=vda\nDEVTYPE=disk\nDISKSEQ=3\n',
        dev: '254:0\n',
        size: '2097152\n',
        ro: '0\n',
        removable: '0\n',
        events: '\n',
        ...queue(512, 4096, 1),
      },
    },
    {
      devpath: `${VDA}/vda1`,
      files: {
        uevent: 'MAJOR=254\nMINOR=1\nDEVNAME=vda1\nDEVTYPE=partition\nPARTN=1\nPARTNAME=META\n',
        dev: '254:1\n',
        size: '2048\n',
        ro: '0\n',
        partition: '1\n',
        start: '2048\n',
      },
    },
    {
      devpath: `${VDA}/vda2`,
      files: {
        uevent: 'MAJOR=254\nMINOR=2\nDEVNAME=vda2\nDEVTYPE=partition\nPARTN=2\nPARTNAME=STATE\n',
        dev: '254:2\n',
        size: '204800\n',
        ro: '0\n',
        partition: '2\n',
        start: '4096\n',
      },
      holders: ['/devices/virtual/block/dm-0'],
    },
    {
      devpath: '/devices/virtual/block/dm-0',
      files: {
        uevent: 'MAJOR=253\nMINOR=0\nDEVNAME=dm-0\nDEVTYPE=disk\n',
        dev: '253:0\n',
        size: '200704\n',
        ro: '0\n',
        removable: '0\n',
        'dm/name': 'luks-state\n',
        'dm/uuid': 'CRYPT-LUKS2-4f6e1ad1-luks-state\n',
        ...queue(4096),
      },
      slaves: [`${VDA}/vda2`],
    },
    {
      devpath: '/devices/pci0000:00/0000:00:01.1/ata2/host1/target1:0:0/1:0:0:0/block/sr0',
      files: {
        uevent: 'MAJOR=11\nMINOR=0\nDEVNAME=sr0\nDEVTYPE=disk\nDISKSEQ=1\n',
        dev: '11:0\n',
        size: '1048576\n',
        ro: '0\n',
        removable: '1\n',
        events: 'media_change eject_request\n',
        ...queue(2048),
      },
    },
    {
      devpath: '/devices/virtual/block/loop10',
      files: {
        uevent: 'MAJOR=7\nMINOR=10\nDEVNAME=loop10\nDEVTYPE=disk\n',
        dev: '7:10\n',
        size: '0\n',
        ro: '0\n',
        removable: '0\n',
        ...queue(),
      },
    },
    {
      devpath: '/devices/virtual/block/loop2',
      files: {
        uevent: 'MAJOR=7\nMINOR=2\nDEVNAME=loop2\nDEVTYPE=disk\n',
        dev: '7:2\n',
        size: '8\n',
        ro: '1\n',
        removable: '0\n',
        ...queue(),
      },
    },
  ]);
  return root;
}

const byName = (ds: readonly BlockDevice[], name: string) => {
  const d = ds.find((x) => x.name === name);
  if (!d) throw new Error(`${name} is not listed (listed: ${ds.map((x) => x.name).join(', ')})`);
  return d;
};

describe('block devices from a sysfs tree', () => {
  it('lists disks in name order, each followed by its partitions', async () => {
    const ds = await listBlockDevices({ sys: tree() });
    expect(ds.map((d) => d.name)).toEqual(['dm-0', 'loop2', 'loop10', 'sr0', 'vda', 'vda1', 'vda2']);
  });

  it('gives partitions their parent, number, label and start, and the disk’s queue', async () => {
    const ds = await listBlockDevices({ sys: tree() });
    expect(byName(ds, 'vda2')).toMatchObject({
      type: 'partition',
      parent: 'vda',
      partitionNumber: 2,
      partitionName: 'STATE',
      start: 4096n * 512n,
      size: 100n << 20n,
      devpath: `${VDA}/vda2`,
      devPath: '/dev/vda2',
      logicalSectorSize: 512,
      physicalSectorSize: 4096,
      rotational: true,
      holders: ['dm-0'],
    });
  });

  it('shows what stacks on what: dm-crypt’s secondaries, the partition’s holders', async () => {
    const ds = await listBlockDevices({ sys: tree() });
    expect(byName(ds, 'dm-0')).toMatchObject({
      type: 'disk',
      secondaries: ['vda2'],
      dm: { name: 'luks-state', uuid: 'CRYPT-LUKS2-4f6e1ad1-luks-state' },
      logicalSectorSize: 4096,
    });
    expect(byName(ds, 'sr0')).toMatchObject({ cdrom: true, removable: true, logicalSectorSize: 2048 });
    expect(byName(ds, 'loop2')).toMatchObject({ readonly: true, size: 4096n, cdrom: false });
  });

  it('reads a kpartx map over a device-mapper disk as a partition, by the slave’s dm/uuid', async () => {
    const root = tree();
    fakeSysfs(root, [
      {
        devpath: '/devices/virtual/block/dm-1',
        files: {
          uevent: 'MAJOR=253\nMINOR=1\nDEVNAME=dm-1\nDEVTYPE=disk\n',
          dev: '253:1\n',
          size: '1024\n',
          'dm/name': 'luks-state1\n',
          'dm/uuid': 'part1-CRYPT-LUKS2-4f6e1ad1-luks-state\n',
          ...queue(4096),
        },
        slaves: ['/devices/virtual/block/dm-0'],
      },
    ]);
    expect(await readBlockDevice('dm-1', { sys: root })).toMatchObject({
      type: 'partition',
      parent: 'dm-0',
      partitionNumber: 1,
    });
  });

  it('leaves out a device that is gone, and reads an absent one as undefined', async () => {
    const root = tree();
    symlinkSync('../../devices/virtual/block/loop99', join(root, 'class', 'block', 'loop99'));
    const ds = await listBlockDevices({ sys: root });
    expect(ds.map((d) => d.name)).not.toContain('loop99');
    expect(await readBlockDevice('loop99', { sys: root })).toBeUndefined();
    expect(await readBlockDevice('nvme0n1', { sys: root })).toBeUndefined();
  });

  it('refuses an attribute the kernel would not write, naming the file', async () => {
    const root = tree();
    writeFileSync(join(root, VDA, 'size'), 'big\n');
    await expect(listBlockDevices({ sys: root })).rejects.toMatchObject({
      name: 'BlockError',
      code: 'malformed',
      device: 'vda',
      message: expect.stringContaining(`${VDA}/size: not a sector count: "big"`),
    });
  });

  it('fails with not-found when there is no sysfs at the root', async () => {
    const root = tempDir('nosysfs');
    await expect(listBlockDevices({ sys: root })).rejects.toMatchObject({ code: 'not-found' });
  });
});

const lsblkType = (d: BlockDevice) => (d.type === 'partition' ? 'part' : 'loop');

function expectAsLsblk(d: BlockDevice, path: string): void {
  const l = lsblk(path).find((x) => x.name === d.name);
  if (!l) throw new Error(`lsblk does not show ${d.name}`);
  expect({
    size: d.size,
    logSec: d.logicalSectorSize,
    phySec: d.physicalSectorSize,
    ro: d.readonly,
    rm: d.removable,
    rota: d.rotational,
    type: lsblkType(d),
    pkname: d.type === 'partition' ? d.parent : null,
    majMin: `${d.major}:${d.minor}`,
  }).toEqual({
    size: l.size,
    logSec: l.logSec,
    phySec: l.phySec,
    ro: l.ro,
    rm: l.rm,
    rota: l.rota,
    type: l.type,
    pkname: l.pkname,
    majMin: l.majMin,
  });
}

describe('block devices from the kernel’s sysfs', () => {
  it('lists an attached loop device with the size, sector sizes and flags lsblk reports', async () => {
    const loop = attachLoop(image(tempDir('list'), 24 << 20));
    const d = byName(await listBlockDevices(), loop.name);
    expect(d).toMatchObject({
      type: 'disk',
      devPath: loop.path,
      devpath: `/devices/virtual/block/${loop.name}`,
    });
    expect(d.size).toBe(24n << 20n);
    expectAsLsblk(d, loop.path);
  });

  it('reads a 4 KiB-sector, read-only loop device as lsblk does', async () => {
    const loop = attachLoop(image(tempDir('ro4k'), 8 << 20), { flags: LO_FLAGS.READ_ONLY, blockSize: 4096 });
    const d = await readBlockDevice(loop.name);
    if (!d) throw new Error(`${loop.name} is not in sysfs`);
    expect(d).toMatchObject({ readonly: true, logicalSectorSize: 4096 });
    expectAsLsblk(d, loop.path);
  });

  it('shows the partitions of a partitioned loop with parent, number, size and start', async () => {
    const loop = partitionedLoop(tempDir('parts'));
    const ds = (await listBlockDevices()).filter(
      (d) => d.name === loop.name || d.name.startsWith(`${loop.name}p`),
    );
    expect(ds.map((d) => d.name)).toEqual([loop.name, `${loop.name}p1`, `${loop.name}p2`]);
    // partx reads the table on the device: number and first sector of each partition
    const starts = run('partx', ['-g', '-o', 'NR,START', loop.path])
      .trim()
      .split('\n')
      .map((line) => line.trim().split(/\s+/).map(Number));
    for (const d of ds) expectAsLsblk(d, loop.path);
    const parts = ds.filter((d): d is PartitionDevice => d.type === 'partition');
    expect(parts.map((p) => [p.partitionNumber, Number(p.start! / 512n)])).toEqual(starts);
    expect(parts.every((p) => p.parent === loop.name)).toBe(true);
    // the GPT label travels as PARTNAME only when the kernel read the table itself; BLKPG adds none
    expect(parts[0]!.partitionName).toBe(loop.scannedByKernel ? 'keel-alpha' : '');
    expect(parts[0]!.size).toBe(4n << 20n);
  });
});
