// The install layout as a pure plan: which boot partitions a bootloader needs, in upstream's order with
// upstream's labels and type GUIDs, and the GPT that puts them on a disk of a given size. STATE and
// EPHEMERAL are not here: machined's volume controllers make them on first boot, as upstream ≥ 1.8 does.
import {
  addPartition,
  createTable,
  DISK_IMAGE_LABEL,
  type GptTable,
  type Guid,
  guidFromLabel,
  PARTITION_ATTR,
  PARTITION_TYPE,
  partitionBytes,
} from '../sys/block/gpt/index.js';
import { InstallError } from './errors.js';

/** Bootloader: systemd-boot with UKIs (UEFI), GRUB (BIOS), or both on one disk as upstream's disk images. */
export type Bootloader = 'sd-boot' | 'grub' | 'dual';

export const BOOTLOADERS: readonly Bootloader[] = ['sd-boot', 'grub', 'dual'];

export type PartitionLabel = 'EFI' | 'BIOS' | 'BOOT' | 'META';

/** what the installer puts on a partition once the table is written */
export type PartitionContent = 'vfat' | 'xfs' | 'zeroes';

const MiB = 1n << 20n;

/**
 * PARTITION_SIZES, in bytes. Upstream's EFI of 2101 MiB (sd-boot) and BOOT of 2000 MiB are sized for its
 * ~100 MB UKIs and initramfs images. Keel's UKI is about 42 MB (its initramfs budget is 40 MB), and the
 * layers (components.ts: etcd, containerd, runc, the CNI plugins, about 75 MB; Kubernetes, about 95 MB)
 * are kept beside each slot: on EFI with sd-boot, so its EFI is 512 MiB, room for two slots (current and
 * previous) of a UKI and its layers of up to ~250 MB together, about 210 MB today. BOOT is 512 MiB for
 * GRUB's two slots A and B and their layers, about 210 MB a slot today (mkfs.xfs refuses anything under
 * 300 MiB); dual keeps its layers there, so its EFI holds the UKI slots alone, 256 MiB: up to ~120 MB a
 * UKI. EFI keeps upstream's 100 MiB when it holds no UKI (GRUB only); BIOS and META are upstream's 1 MiB.
 */
export const PARTITION_SIZES = {
  efiSdBoot: 512n * MiB,
  efiUki: 256n * MiB,
  efiGrub: 100n * MiB,
  bios: MiB,
  boot: 512n * MiB,
  meta: MiB,
} as const;

/** efiSize is the EFI partition's size for a bootloader (above). */
const efiSize = (b: Bootloader): bigint =>
  b === 'grub' ? PARTITION_SIZES.efiGrub : b === 'dual' ? PARTITION_SIZES.efiUki : PARTITION_SIZES.efiSdBoot;

export interface PartitionPlan {
  readonly label: PartitionLabel;
  readonly type: Guid;
  readonly sizeBytes: bigint;
  readonly attributes: bigint;
  readonly content: PartitionContent;
}

/** bootPartitions lists the partitions a bootloader needs, in upstream's order: EFI, BIOS, BOOT, META. */
export function bootPartitions(bootloader: Bootloader): readonly PartitionPlan[] {
  checkBootloader(bootloader);
  const grub = bootloader !== 'sd-boot';
  const efi: PartitionPlan = {
    label: 'EFI',
    type: PARTITION_TYPE.efiSystem,
    sizeBytes: efiSize(bootloader),
    attributes: 0n,
    content: 'vfat',
  };
  const meta: PartitionPlan = {
    label: 'META',
    type: PARTITION_TYPE.linuxFilesystem,
    sizeBytes: PARTITION_SIZES.meta,
    attributes: 0n,
    content: 'zeroes',
  };
  if (!grub) return [efi, meta];
  return [
    efi,
    {
      label: 'BIOS',
      type: PARTITION_TYPE.biosBoot,
      sizeBytes: PARTITION_SIZES.bios,
      attributes: PARTITION_ATTR.legacyBiosBootable,
      content: 'zeroes',
    },
    {
      label: 'BOOT',
      type: PARTITION_TYPE.linuxFilesystem,
      sizeBytes: PARTITION_SIZES.boot,
      attributes: 0n,
      content: 'xfs',
    },
    meta,
  ];
}

export interface LayoutRequest {
  /** the disk's size in bytes */
  readonly diskBytes: bigint;
  /** its logical sector size: 512 or 4096 (GRUB's BIOS boot works on 512-byte sectors only) */
  readonly sectorSize: number;
  readonly bootloader: Bootloader;
  /**
   * GUIDs derived from the labels, as upstream gives its disk images (reproducible bytes); an install to
   * a machine's disk gets random ones (the default)
   */
  readonly deterministic?: boolean;
}

export interface PlacedPartition extends PartitionPlan {
  /** the GPT entry number: the N of /dev/sdaN */
  readonly number: number;
  readonly offsetBytes: bigint;
  readonly firstLba: bigint;
}

export interface InstallLayout {
  readonly bootloader: Bootloader;
  readonly table: GptTable;
  readonly partitions: readonly PlacedPartition[];
}

/** planLayout lays out the boot partitions on an empty GPT for the disk; the rest of the disk stays free. */
export function planLayout(req: LayoutRequest): InstallLayout {
  const plans = bootPartitions(req.bootloader);
  if (req.bootloader !== 'sd-boot' && req.sectorSize !== 512)
    throw new InstallError(
      'invalid-argument',
      `${req.bootloader}: GRUB boots BIOS machines from 512-byte sectors only, this disk has ${req.sectorSize}-byte ones (use sd-boot)`,
    );
  const need = minimumDiskBytes(req.bootloader);
  if (req.diskBytes < need)
    throw new InstallError(
      'disk-too-small',
      `${req.bootloader}: the boot partitions need a disk of at least ${mib(need)} MiB, this one has ${mib(req.diskBytes)} MiB`,
    );
  let table = createTable({
    diskSectors: req.diskBytes / BigInt(req.sectorSize),
    sectorSize: req.sectorSize,
    ...(req.deterministic ? { diskGuid: guidFromLabel(DISK_IMAGE_LABEL) } : {}),
  });
  const partitions: PlacedPartition[] = [];
  for (const p of plans) {
    const added = addPartition(table, {
      name: p.label,
      type: p.type,
      size: p.sizeBytes,
      attributes: p.attributes,
      ...(req.deterministic ? { guid: guidFromLabel(p.label) } : {}),
    });
    table = added.table;
    partitions.push({
      ...p,
      number: added.partition.number,
      firstLba: added.partition.firstLba,
      offsetBytes: partitionBytes(table, added.partition).offset,
    });
  }
  return { bootloader: req.bootloader, table, partitions };
}

/**
 * minimumDiskBytes is the smallest disk the layout fits: 1 MiB before the first partition (the primary
 * GPT, partitions aligned to 1 MiB), the partitions, and 1 MiB for the backup GPT at the end.
 */
export function minimumDiskBytes(bootloader: Bootloader): bigint {
  return bootPartitions(bootloader).reduce((sum, p) => sum + p.sizeBytes, 2n * MiB);
}

/** partitionOf finds a placed partition by label; undefined when the layout has none. */
export const partitionOf = (l: InstallLayout, label: PartitionLabel): PlacedPartition | undefined =>
  l.partitions.find((p) => p.label === label);

function checkBootloader(b: string): asserts b is Bootloader {
  if (!(BOOTLOADERS as readonly string[]).includes(b))
    throw new InstallError(
      'invalid-argument',
      `bootloader ${JSON.stringify(b)}: want one of ${BOOTLOADERS.join(', ')}`,
    );
}

const mib = (b: bigint) => (b + MiB - 1n) / MiB;
