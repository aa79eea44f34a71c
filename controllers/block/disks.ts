// block.DisksController: a Disk for every whole-disk Device (RAM disks left out, as upstream), read when
// the device's generation moves: size and geometry from the device, flags and identity from sysfs.
import { Device, Disk, type DiskSpec, prettySize } from '../../resources/block/index.js';
import { defineController, input, output } from '../../src/cosi/controller/index.js';
import {
  closeBlockDevice,
  type DiskProperties,
  getIOSize,
  getLogicalSectorSize,
  getSize,
  isCdrom,
  isCdromNoMedia,
  openBlockDevice,
  readBlockDevice,
  readDiskProperties,
} from '../../src/sys/block/devices/index.js';

export const DISKS_CONTROLLER = 'block.DisksController';

/** RAM_DISK_MAJOR: /dev/ramN are memory, not disks (as lsblk and upstream skip them). */
export const RAM_DISK_MAJOR = 1;

/** DiskFacts is what the device and sysfs say of one disk. */
export interface DiskFacts {
  readonly id: string;
  /** bytes */
  readonly size: number;
  readonly ioSize: number;
  readonly sectorSize: number;
  readonly readonly: boolean;
  readonly cdrom: boolean;
  readonly busPath: string;
  readonly secondaries: readonly string[];
  readonly props: DiskProperties;
}

/** DisksController publishes a Disk per whole disk. */
export const DisksController = defineController({
  name: DISKS_CONTROLLER,
  inputs: [input(Device)],
  outputs: [output(Disk, 'exclusive')],
  async run(rt, { signal, logger }) {
    // a disk is read again only when its device's generation moves
    const seen = new Map<string, number>();
    for await (const _ of rt.events(signal)) {
      const devices = await rt.list(Device);
      const parents = new Map(devices.map((d) => [d.metadata.id, d.spec.parent]));
      const touched = new Set<string>();
      for (const d of devices) {
        const id = d.metadata.id;
        if (d.spec.type !== 'disk' || d.spec.major === RAM_DISK_MAJOR) continue;
        if (seen.get(id) === d.spec.generation) {
          touched.add(id);
          continue;
        }
        seen.set(id, d.spec.generation);
        const facts = await readDiskFacts(id, d.spec.devicePath.split('/').at(-1) ?? id, signal);
        if (!facts) {
          logger.debug('disk left out: no size or cannot be opened', { id });
          continue;
        }
        touched.add(id);
        const spec = diskSpecOf(facts, (s) => parents.get(s) || undefined);
        await rt.modify(Disk, id, () => spec);
      }
      for (const disk of await rt.list(Disk)) {
        if (touched.has(disk.metadata.id)) continue;
        await rt.destroy(Disk.pointer(disk.metadata.id));
        seen.delete(disk.metadata.id);
      }
      rt.resetBackoff();
    }
  },
});

/** readDiskFacts opens /dev/<id> read-only and reads sysfs; undefined for a device that is gone or empty. */
async function readDiskFacts(id: string, name: string, signal: AbortSignal): Promise<DiskFacts | undefined> {
  let fd: ReturnType<typeof openBlockDevice>;
  try {
    fd = openBlockDevice(`/dev/${id}`);
  } catch {
    return undefined; // gone meanwhile, or no node: its removal event follows
  }
  try {
    let size = Number(getSize(fd));
    if (size === 0) return undefined;
    const cdrom = isCdrom(fd);
    // the kernel gives an empty drive a nominal size: upstream shows it as 0
    if (cdrom && isCdromNoMedia(fd)) size = 0;
    let sectorSize = 512;
    try {
      sectorSize = getLogicalSectorSize(fd);
    } catch {
      // a driver without BLKSSZGET: upstream's default
    }
    const [record, props] = await Promise.all([readBlockDevice(name, { signal }), readDiskProperties(name)]);
    if (record?.type !== 'disk') return undefined;
    return {
      id,
      size,
      ioSize: getIOSize(fd),
      sectorSize,
      readonly: record.readonly,
      cdrom,
      busPath: record.busPath,
      secondaries: record.secondaries,
      props,
    };
  } finally {
    closeBlockDevice(fd);
  }
}

/**
 * diskSpecOf is a disk as upstream describes it. A secondary that is a partition is named by its disk
 * (`parentOf`), so that a mapped disk points at disks.
 */
export function diskSpecOf(
  f: DiskFacts,
  parentOf: (id: string) => string | undefined = () => undefined,
): DiskSpec {
  return {
    devPath: `/dev/${f.id}`,
    size: f.size,
    prettySize: prettySize(f.size),
    ioSize: f.ioSize,
    sectorSize: f.sectorSize,
    readonly: f.readonly,
    cdrom: f.cdrom,
    model: f.props.model,
    firmwareVersion: '',
    serial: f.props.serial,
    modalias: f.props.modalias,
    wwid: f.props.wwid,
    uuid: '',
    busPath: f.busPath,
    subSystem: f.props.subSystem,
    transport: f.props.transport,
    rotational: f.props.rotational,
    secondaryDisks: f.secondaries.map((s) => parentOf(s) ?? s),
    // upstream fills these from Symlinks resources (udev's /dev/disk/by-*), which Keel has not yet
    symlinks: [],
  };
}
