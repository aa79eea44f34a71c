// What sysfs says of a disk beyond its geometry, read as upstream's go-blockdevice GetProperties does:
// model, serial, modalias, WWID, the class subsystem, rotational, and the transport (nvme, virtio, mmc,
// or for SCSI disks sas, fc, iscsi, usb, sata, ata or virtio, from the SCSI host the disk hangs off).
import { readFile, readlink, realpath, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { SysfsOptions } from './sysfs.js';

/** DiskProperties: '' where the driver says nothing. */
export interface DiskProperties {
  readonly model: string;
  readonly serial: string;
  readonly modalias: string;
  readonly wwid: string;
  /** the resolved `subsystem` link: /sys/class/block */
  readonly subSystem: string;
  readonly transport: string;
  readonly rotational: boolean;
}

const text = (path: string): Promise<string> =>
  readFile(path, 'utf8').then(
    (s) => s.trim(),
    () => '',
  );
const link = (path: string): Promise<string> => readlink(path).catch(() => '');
const isDir = (path: string): Promise<boolean> =>
  stat(path).then(
    (s) => s.isDirectory(),
    () => false,
  );
const exists = (path: string): Promise<boolean> =>
  stat(path).then(
    () => true,
    () => false,
  );

/** transportByName: the kernel names of NVMe, virtio-blk and MMC disks say their transport. */
export function transportByName(name: string): string | undefined {
  if (name.startsWith('nvme')) return 'nvme';
  if (name.startsWith('vd')) return 'virtio';
  if (name.startsWith('mmcblk')) return 'mmc';
  return undefined;
}

/** scsiHostOf reads the host number of a SCSI address (`2:0:0:0`); undefined for anything else. */
export function scsiHostOf(address: string): number | undefined {
  const colon = address.indexOf(':');
  if (colon <= 0) return undefined;
  const host = address.slice(0, colon);
  return /^\d+$/.test(host) ? Number(host) : undefined;
}

/** transportOfProcName names the transport of a plain SCSI host from its driver (`proc_name`). */
export function transportOfProcName(procName: string): string {
  if (procName === 'ahci' || procName === 'sata') return 'sata';
  if (procName.includes('ata')) return 'ata';
  if (procName === 'virtio_scsi') return 'virtio';
  return '';
}

async function transport(sys: string, dir: string, name: string): Promise<string> {
  const byName = transportByName(name);
  if (byName) return byName;
  const target = await link(join(dir, 'device'));
  const address = target.slice(target.lastIndexOf('/') + 1);
  const host = scsiHostOf(address);
  if (host === undefined) return '';
  const hostDir = (kind: string) => join(sys, 'class', `${kind}_host`, `host${host}`);
  if (await isDir(hostDir('sas'))) return 'sas';
  if (await isDir(hostDir('fc'))) return 'fc';
  if (await exists(join(sys, 'bus', 'scsi', 'devices', address, 'ieee1394_id'))) return 'ibp';
  if (await isDir(hostDir('iscsi'))) return 'iscsi';
  if ((await link(join(sys, 'bus', 'scsi', 'devices', address))).includes('usb')) return 'usb';
  if (await isDir(hostDir('scsi')))
    return transportOfProcName(await text(join(hostDir('scsi'), 'proc_name')));
  return '';
}

/** readDiskProperties reads a disk's properties by its kernel name (`sda`, `loop0`). */
export async function readDiskProperties(name: string, o: SysfsOptions = {}): Promise<DiskProperties> {
  const sys = o.sys ?? '/sys';
  const dir = join(sys, 'class', 'block', name);
  const [model, serial, modalias, wwid, deviceWwid, rotational, subSystem, trans] = await Promise.all([
    text(join(dir, 'device', 'model')),
    text(join(dir, 'device', 'serial')),
    text(join(dir, 'device', 'modalias')),
    text(join(dir, 'wwid')),
    text(join(dir, 'device', 'wwid')),
    text(join(dir, 'queue', 'rotational')),
    realpath(join(dir, 'subsystem')).catch(() => ''),
    transport(sys, dir, name),
  ]);
  return {
    model,
    serial,
    modalias,
    wwid: wwid || deviceWwid,
    subSystem,
    transport: trans,
    rotational: rotational === '1',
  };
}
