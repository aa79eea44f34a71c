// A block device as sysfs shows it, the pure part: the raw attribute texts of one /sys/class/block entry
// (SysfsBlockFacts) become a typed record (BlockDevice), a whole disk or a partition. The upstream
// resource this feeds is block.Device (type, major, minor, partition name and number, device path,
// parent, secondaries), with the geometry block.Disk shows. Reading the files is sysfs.ts.
import { busPath } from '../../procfs/index.js';
import { BlockError } from './errors.js';

/** SysfsBlockFacts are the attribute texts of one device, untrimmed; an absent attribute is ''. */
export interface SysfsBlockFacts {
  /** the entry's name in /sys/class/block, the kernel's name of the device: `loop0p1`, `dm-0` */
  readonly name: string;
  /** the device's directory in the tree read, for naming files in errors */
  readonly sysPath: string;
  /** where the kernel keeps the device, as uevents name it: `/devices/virtual/block/loop0/loop0p1` */
  readonly devpath: string;
  readonly uevent: string;
  readonly dev: string;
  /** in 512-byte sectors, whatever the logical block size */
  readonly size: string;
  readonly ro: string;
  /** a partition's number (its `partition` file); '' for a whole disk */
  readonly partition: string;
  /** a partition's first sector (512 bytes) */
  readonly start: string;
  /** the whole disk's attributes: a partition shares its disk's queue, removability and events */
  readonly disk: {
    readonly removable: string;
    readonly events: string;
    readonly logicalBlockSize: string;
    readonly physicalBlockSize: string;
    readonly minimumIOSize: string;
    readonly optimalIOSize: string;
    readonly rotational: string;
  };
  /** the devices stacked on this one (`holders/`), and the ones it is stacked on (`slaves/`) */
  readonly holders: readonly string[];
  readonly slaves: readonly string[];
  /** device-mapper's `dm/name` and `dm/uuid`; '' for other devices */
  readonly dmName: string;
  readonly dmUuid: string;
  /** `dm/uuid` of each device in `slaves/` that is device-mapper itself */
  readonly slaveDmUuids: Readonly<Record<string, string>>;
}

interface BlockDeviceBase {
  /** the kernel's name, which is the resource id upstream: `loop0p1` */
  readonly name: string;
  /** `/dev/` + the uevent's DEVNAME (which may hold a subdirectory) */
  readonly devPath: string;
  readonly devpath: string;
  readonly major: number;
  readonly minor: number;
  /** the disk's sequence number (DISKSEQ, Linux 5.15+): a new one each time media or backing changes */
  readonly diskSeq: number | undefined;
  /** bytes */
  readonly size: bigint;
  readonly logicalSectorSize: number;
  readonly physicalSectorSize: number;
  readonly minimumIOSize: number;
  /** 0 when the device names no optimal size */
  readonly optimalIOSize: number;
  readonly readonly: boolean;
  readonly removable: boolean;
  readonly rotational: boolean;
  readonly cdrom: boolean;
  readonly holders: readonly string[];
  /** set for device-mapper devices */
  readonly dm: { readonly name: string; readonly uuid: string } | undefined;
}

export interface DiskDevice extends BlockDeviceBase {
  readonly type: 'disk';
  /** the devices this one is mapped over (its `slaves/`): a dm-crypt or LVM volume's disks */
  readonly secondaries: readonly string[];
  /** the disk's place on the buses (upstream's bus_path): `/pci0000:00/0000:00:02.0/virtio1`, `/virtual` */
  readonly busPath: string;
}

export interface PartitionDevice extends BlockDeviceBase {
  readonly type: 'partition';
  /** the whole disk's name */
  readonly parent: string;
  readonly partitionNumber: number;
  /** the partition's label (PARTNAME, GPT only); '' when it has none */
  readonly partitionName: string;
  /** the first byte; undefined for a device-mapper partition map, whose offset is in its table */
  readonly start: bigint | undefined;
}

export type BlockDevice = DiskDevice | PartitionDevice;

/** parseUeventFile reads a sysfs `uevent` file: KEY=VALUE lines. */
export function parseUeventFile(text: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const line of text.split('\n')) {
    const eq = line.indexOf('=');
    if (eq > 0) env[line.slice(0, eq)] = line.slice(eq + 1);
  }
  return env;
}

/** dmPartitionOf reads kpartx's partition-map uuid, `part<N>-<uuid of the disk>`; other uuids: undefined. */
export function dmPartitionOf(uuid: string): { number: number; parentUuid: string } | undefined {
  const m = /^part(\d+)-(.+)$/.exec(uuid.trim());
  if (!m || Number(m[1]) === 0) return undefined;
  return { number: Number(m[1]), parentUuid: m[2]! };
}

const OPTICAL_MAJOR = 11; // SCSI CD-ROM (sr), as the hardware API's diskType reads it

function decimal(f: SysfsBlockFacts, file: string, text: string): number {
  const t = text.trim();
  if (!/^\d+$/.test(t))
    throw new BlockError('malformed', f.name, `${f.sysPath}/${file}: not a number: ${JSON.stringify(t)}`);
  return Number(t);
}

function sectors(f: SysfsBlockFacts, file: string, text: string): bigint {
  const t = text.trim();
  if (!/^\d+$/.test(t))
    throw new BlockError(
      'malformed',
      f.name,
      `${f.sysPath}/${file}: not a sector count: ${JSON.stringify(t)}`,
    );
  return BigInt(t) * 512n;
}

/** a queue attribute a driver may leave out reads as its default */
const optionalSize = (f: SysfsBlockFacts, file: string, text: string, dflt: number): number =>
  text.trim() === '' ? dflt : decimal(f, file, text);

function numbers(f: SysfsBlockFacts, env: Record<string, string>): { major: number; minor: number } {
  if (env.MAJOR !== undefined && env.MINOR !== undefined)
    return { major: decimal(f, 'uevent', env.MAJOR), minor: decimal(f, 'uevent', env.MINOR) };
  const m = /^(\d+):(\d+)$/.exec(f.dev.trim());
  if (!m)
    throw new BlockError('malformed', f.name, `${f.sysPath}/dev: not major:minor: ${JSON.stringify(f.dev)}`);
  return { major: Number(m[1]), minor: Number(m[2]) };
}

/**
 * dmPartitionParent: a device-mapper device the kernel calls a disk is a partition when its uuid is
 * kpartx's `part<N>-<uuid>` and it is mapped over exactly the device-mapper disk that uuid names, as
 * upstream decides. kpartx over a loop or a real disk is left a disk: those carry kernel partitions.
 */
function dmPartitionParent(f: SysfsBlockFacts): { parent: string; number: number } | undefined {
  const p = dmPartitionOf(f.dmUuid);
  if (!p || f.slaves.length !== 1) return undefined;
  const parent = f.slaves[0]!;
  return f.slaveDmUuids[parent]?.trim() === p.parentUuid ? { parent, number: p.number } : undefined;
}

/** blockDeviceOf types one device's facts; an attribute that is not what the kernel writes throws. */
export function blockDeviceOf(f: SysfsBlockFacts): BlockDevice {
  const env = parseUeventFile(f.uevent);
  const { major, minor } = numbers(f, env);
  const q = f.disk;
  const logicalSectorSize = optionalSize(f, 'queue/logical_block_size', q.logicalBlockSize, 512);
  const base: BlockDeviceBase = {
    name: f.name,
    devPath: `/dev/${env.DEVNAME || f.name.replaceAll('!', '/')}`,
    devpath: f.devpath,
    major,
    minor,
    diskSeq: env.DISKSEQ ? decimal(f, 'uevent', env.DISKSEQ) : undefined,
    size: sectors(f, 'size', f.size),
    logicalSectorSize,
    physicalSectorSize: optionalSize(f, 'queue/physical_block_size', q.physicalBlockSize, logicalSectorSize),
    minimumIOSize: optionalSize(f, 'queue/minimum_io_size', q.minimumIOSize, logicalSectorSize),
    optimalIOSize: optionalSize(f, 'queue/optimal_io_size', q.optimalIOSize, 0),
    readonly: f.ro.trim() === '1',
    removable: q.removable.trim() === '1',
    rotational: q.rotational.trim() === '1',
    // sr drives, and any drive that asks to eject its media (only the CD-ROM layer reports that event)
    cdrom: major === OPTICAL_MAJOR || /\beject_request\b/.test(q.events),
    holders: [...f.holders].sort(),
    dm: f.dmUuid.trim() || f.dmName.trim() ? { name: f.dmName.trim(), uuid: f.dmUuid.trim() } : undefined,
  };
  if (f.partition.trim() !== '' || env.DEVTYPE === 'partition') {
    const number = decimal(f, 'partition', f.partition || env.PARTN || '');
    return {
      ...base,
      type: 'partition',
      parent: parentOf(f.devpath),
      partitionNumber: number,
      partitionName: env.PARTNAME ?? '',
      start: f.start.trim() === '' ? undefined : sectors(f, 'start', f.start),
    };
  }
  const mapped = dmPartitionParent(f);
  if (mapped)
    return {
      ...base,
      type: 'partition',
      parent: mapped.parent,
      partitionNumber: mapped.number,
      partitionName: '',
      start: undefined,
    };
  return { ...base, type: 'disk', secondaries: [...f.slaves].sort(), busPath: busPath(`/sys${f.devpath}`) };
}

/** parentOf: a kernel partition's directory sits inside its disk's. */
function parentOf(devpath: string): string {
  const parts = devpath.split('/');
  return parts[parts.length - 2] ?? '';
}

const byName = new Intl.Collator('en', { numeric: true }).compare;

/** sortDevices orders disks by name (loop2 before loop10), each followed by its partitions by number. */
export function sortDevices(devices: readonly BlockDevice[]): BlockDevice[] {
  const diskOf = (d: BlockDevice) => (d.type === 'partition' ? d.parent : d.name);
  return [...devices].sort(
    (a, b) =>
      byName(diskOf(a), diskOf(b)) ||
      (a.type === 'partition' ? a.partitionNumber : 0) - (b.type === 'partition' ? b.partitionNumber : 0) ||
      byName(a.name, b.name),
  );
}
