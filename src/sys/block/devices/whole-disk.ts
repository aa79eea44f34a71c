// The whole disk under a device, which is what the lock and the partition table belong to: a partition's
// parent, or the disk itself. Found from sysfs, by name or, for an open descriptor, by major:minor.
import { realpath } from 'node:fs/promises';
import { basename, join } from 'node:path';
import type { BlockDevice } from './device.js';
import { BlockError, blockErrorOf } from './errors.js';
import { type DeviceRef, deviceLabel, deviceNumber } from './open.js';
import { readBlockDevice, type SysfsOptions } from './sysfs.js';

async function mustRead(name: string, o: SysfsOptions): Promise<BlockDevice> {
  const d = await readBlockDevice(name, o);
  if (!d) throw new BlockError('not-found', name, `no such block device in ${o.sys ?? '/sys'}/class/block`);
  return d;
}

/** wholeDiskOf is the kernel name of the disk a device belongs to (`loop0` for `loop0p1`). */
export async function wholeDiskOf(name: string, o: SysfsOptions = {}): Promise<string> {
  const d = await mustRead(name, o);
  return d.type === 'partition' ? d.parent : d.name;
}

/** deviceOfFd reads the sysfs record of an open block device, through /sys/dev/block/<major>:<minor>. */
export async function deviceOfFd(d: DeviceRef, o: SysfsOptions = {}): Promise<BlockDevice> {
  const { major, minor } = deviceNumber(d);
  const link = join(o.sys ?? '/sys', 'dev', 'block', `${major}:${minor}`);
  let dir: string;
  try {
    dir = await realpath(link);
  } catch (cause) {
    throw blockErrorOf(deviceLabel(d), `resolve ${link}`, cause);
  }
  return mustRead(basename(dir), o);
}

/** wholeDiskPathOf is the /dev path of the whole disk under an open device (itself when it is one). */
export async function wholeDiskPathOf(d: DeviceRef, o: SysfsOptions = {}): Promise<string> {
  const dev = await deviceOfFd(d, o);
  return dev.type === 'partition' ? (await mustRead(dev.parent, o)).devPath : dev.devPath;
}
