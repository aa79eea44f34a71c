// Block devices as /sys/block shows them: the pure part (deciding a disk's type and bus path from sysfs
// facts). Reading the files is in readers.ts.

export type DiskType = 'UNKNOWN' | 'SSD' | 'HDD' | 'NVME' | 'SD' | 'CD';

/** BlockFacts are the raw sysfs values of one /sys/block entry. */
export interface BlockFacts {
  readonly name: string;
  /** "major:minor" from `dev` */
  readonly dev: string;
  /** 512-byte sectors, from `size` */
  readonly sectors: bigint;
  readonly readonly: boolean;
  readonly rotational: boolean;
  /** resolved /sys/block/<name> link, e.g. /sys/devices/pci0000:00/0000:00:02.0/virtio1/block/vda */
  readonly sysPath: string;
  /** basename of the device's bus (`device/subsystem`): virtio, scsi, nvme, mmc, … ; '' for virtual devices */
  readonly bus: string;
  readonly model: string;
  readonly serial: string;
  readonly wwid: string;
  readonly modalias: string;
  /** `device/name`: what SD/MMC cards call themselves; '' elsewhere */
  readonly cardName: string;
  /** the class subsystem path of the device, /sys/class/block */
  readonly subsystem: string;
}

export interface Disk {
  readonly deviceName: string;
  /** the card name of SD/MMC devices, as upstream; the kernel name is in deviceName */
  readonly name: string;
  /** bytes */
  readonly size: bigint;
  readonly model: string;
  readonly serial: string;
  readonly modalias: string;
  readonly wwid: string;
  readonly type: DiskType;
  readonly busPath: string;
  readonly subsystem: string;
  readonly readonly: boolean;
}

/** RAM disks (major 1) are memory, not disks, and upstream leaves them out. */
export const isRamDisk = (f: Pick<BlockFacts, 'dev'>): boolean => f.dev.split(':')[0] === '1';

/** diskType follows upstream's order: optical, then transport (nvme, mmc), then spinning or not. */
export function diskType(f: BlockFacts): DiskType {
  if (f.dev.split(':')[0] === '11') return 'CD';
  if (f.bus === 'nvme' || f.name.startsWith('nvme')) return 'NVME';
  if (f.bus === 'mmc' || f.name.startsWith('mmcblk')) return 'SD';
  if (!f.bus) return 'UNKNOWN'; // loop, zram, device-mapper: no transport
  return f.rotational ? 'HDD' : 'SSD';
}

/** busPath is the device's place on the buses: the sysfs path without /sys/devices and the block suffix. */
export function busPath(sysPath: string): string {
  const m = /^\/sys\/devices(\/.*?)\/block\/[^/]+$/.exec(sysPath);
  return m ? m[1]! : '';
}

export function diskOf(f: BlockFacts): Disk {
  return {
    deviceName: `/dev/${f.name}`,
    name: f.cardName,
    size: f.sectors * 512n,
    model: f.model,
    serial: f.serial,
    modalias: f.modalias,
    wwid: f.wwid,
    type: diskType(f),
    busPath: busPath(f.sysPath),
    subsystem: f.subsystem,
    readonly: f.readonly,
  };
}
