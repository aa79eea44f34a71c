// Reading block devices from sysfs: every entry of /sys/class/block (disks, partitions, loop, virtio,
// nvme, dm, sr …) through its attribute files, handed to the pure blockDeviceOf. The sysfs root is a
// parameter, so tests read a tree of their own. A device that goes while it is read is left out: it
// was there and is not now, which the uevent for its removal will say too.
import { readdir, readFile, realpath, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { type BlockDevice, blockDeviceOf, type SysfsBlockFacts, sortDevices } from './device.js';
import { BlockError, blockErrorOf } from './errors.js';

export interface SysfsOptions {
  /** where sysfs is mounted (default /sys) */
  readonly sys?: string;
  readonly signal?: AbortSignal;
}

const sysRoot = (o: SysfsOptions) => o.sys ?? '/sys';

// what reading an attribute of a device that is gone, or never had it, fails with
const ABSENT: ReadonlySet<string | undefined> = new Set(['ENOENT', 'ENOTDIR', 'ENODEV', 'ENXIO']);
const absent = (e: unknown): boolean => ABSENT.has((e as NodeJS.ErrnoException | undefined)?.code);

async function attr(name: string, file: string): Promise<string> {
  try {
    return await readFile(file, 'utf8');
  } catch (cause) {
    if (absent(cause)) return '';
    throw blockErrorOf(name, `read ${file}`, cause);
  }
}

async function entries(name: string, dir: string): Promise<string[]> {
  try {
    return await readdir(dir);
  } catch (cause) {
    if (absent(cause)) return [];
    throw blockErrorOf(name, `list ${dir}`, cause);
  }
}

async function resolved(name: string, path: string): Promise<string | undefined> {
  try {
    return await realpath(path);
  } catch (cause) {
    if (absent(cause)) return undefined;
    throw blockErrorOf(name, `resolve ${path}`, cause);
  }
}

/** readBlockDeviceFacts reads one /sys/class/block entry's attributes; undefined when there is none. */
export async function readBlockDeviceFacts(
  name: string,
  o: SysfsOptions = {},
): Promise<SysfsBlockFacts | undefined> {
  const root = sysRoot(o);
  const dir = await resolved(name, join(root, 'class', 'block', name));
  if (!dir) return undefined;
  const uevent = await attr(name, join(dir, 'uevent'));
  if (!uevent) return undefined; // gone between the link and its directory
  const rootDir = (await resolved(name, root)) ?? root;
  const at = (rel: string) => attr(name, join(dir, rel));
  const partition = await at('partition');
  // a kernel partition has no queue of its own: it shares its disk's, one directory up
  const diskDir = partition.trim() ? dirname(dir) : dir;
  const onDisk = (rel: string) => attr(name, join(diskDir, rel));
  const [dev, size, ro, start, dmName, dmUuid, holders, slaves] = await Promise.all([
    at('dev'),
    at('size'),
    at('ro'),
    at('start'),
    at('dm/name'),
    at('dm/uuid'),
    entries(name, join(dir, 'holders')),
    entries(name, join(dir, 'slaves')),
  ]);
  const [removable, events, logicalBlockSize, physicalBlockSize, minimumIOSize, optimalIOSize, rotational] =
    await Promise.all([
      onDisk('removable'),
      onDisk('events'),
      onDisk('queue/logical_block_size'),
      onDisk('queue/physical_block_size'),
      onDisk('queue/minimum_io_size'),
      onDisk('queue/optimal_io_size'),
      onDisk('queue/rotational'),
    ]);
  const slaveDmUuids: Record<string, string> = {};
  if (dmUuid)
    for (const s of slaves) {
      const uuid = await attr(name, join(dir, 'slaves', s, 'dm', 'uuid'));
      if (uuid) slaveDmUuids[s] = uuid;
    }
  return {
    name,
    sysPath: dir,
    devpath: dir.startsWith(rootDir) ? dir.slice(rootDir.length) : dir,
    uevent,
    dev,
    size,
    ro,
    partition,
    start,
    disk: {
      removable,
      events,
      logicalBlockSize,
      physicalBlockSize,
      minimumIOSize,
      optimalIOSize,
      rotational,
    },
    holders,
    slaves,
    dmName,
    dmUuid,
    slaveDmUuids,
  };
}

async function stillThere(dir: string): Promise<boolean> {
  try {
    await stat(dir);
    return true;
  } catch (e) {
    return !absent(e);
  }
}

/** readBlockDevice reads one device by its kernel name (`loop0p1`, a uevent's devpath basename). */
export async function readBlockDevice(name: string, o: SysfsOptions = {}): Promise<BlockDevice | undefined> {
  const facts = await readBlockDeviceFacts(name, o);
  if (!facts) return undefined;
  try {
    return blockDeviceOf(facts);
  } catch (e) {
    // an attribute read empty because the device went meanwhile is its absence, not a malformed file
    if (e instanceof BlockError && e.code === 'malformed' && !(await stillThere(facts.sysPath)))
      return undefined;
    throw e;
  }
}

const BATCH = 16;

/** listBlockDevices reads every block device, disks by name, each followed by its partitions. */
export async function listBlockDevices(o: SysfsOptions = {}): Promise<BlockDevice[]> {
  const dir = join(sysRoot(o), 'class', 'block');
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (cause) {
    throw blockErrorOf(dir, 'list block devices', cause);
  }
  const out: BlockDevice[] = [];
  // a few at a time: each device is a score of small reads, and hundreds of loop devices are possible
  for (let i = 0; i < names.length; i += BATCH) {
    o.signal?.throwIfAborted();
    for (const d of await Promise.all(names.slice(i, i + BATCH).map((n) => readBlockDevice(n, o))))
      if (d) out.push(d);
  }
  return sortDevices(out);
}
