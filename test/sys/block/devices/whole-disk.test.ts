import { describe, expect, it, onTestFinished } from 'vitest';
import { closeBlockDevice, openBlockDevice } from '../../../../src/sys/block/devices/open.js';
import { deviceOfFd, wholeDiskOf, wholeDiskPathOf } from '../../../../src/sys/block/devices/whole-disk.js';
import { fakeSysfs, queue } from './fake-sysfs.js';
import { partitionedLoop, tempDir } from './loop-fixture.js';

describe('the whole disk under a device', () => {
  it('is a partition’s parent and a disk itself, by name and by open descriptor', async () => {
    const loop = partitionedLoop(tempDir('whole'));
    expect(await wholeDiskOf(`${loop.name}p2`)).toBe(loop.name);
    expect(await wholeDiskOf(loop.name)).toBe(loop.name);
    const p1 = openBlockDevice(`${loop.path}p1`);
    onTestFinished(() => closeBlockDevice(p1));
    expect(await wholeDiskPathOf(p1)).toBe(loop.path);
    expect(await wholeDiskPathOf(loop.fd)).toBe(loop.path);
    expect(await deviceOfFd(p1)).toMatchObject({
      type: 'partition',
      name: `${loop.name}p1`,
      partitionNumber: 1,
    });
  });

  it('is the device-mapper disk under a kpartx map', async () => {
    const root = tempDir('whole-dm');
    fakeSysfs(root, [
      {
        devpath: '/devices/virtual/block/dm-0',
        files: {
          uevent: 'MAJOR=253\nMINOR=0\nDEVNAME=dm-0\n',
          size: '8\n',
          'dm/uuid': 'mpath-36001\n',
          ...queue(),
        },
      },
      {
        devpath: '/devices/virtual/block/dm-1',
        files: {
          uevent: 'MAJOR=253\nMINOR=1\nDEVNAME=dm-1\n',
          size: '8\n',
          'dm/uuid': 'part1-mpath-36001\n',
          ...queue(),
        },
        slaves: ['/devices/virtual/block/dm-0'],
      },
    ]);
    expect(await wholeDiskOf('dm-1', { sys: root })).toBe('dm-0');
  });

  it('fails with not-found for a name sysfs does not know', async () => {
    await expect(wholeDiskOf('nvme99n1')).rejects.toMatchObject({
      name: 'BlockError',
      code: 'not-found',
      message: 'nvme99n1: no such block device in /sys/class/block',
    });
  });
});
