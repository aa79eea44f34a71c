// Partition type GUIDs the installer and the volume controllers use, as upstream lays a disk out; with the
// names and two-byte codes sgdisk shows for them, so a table can be read back in sgdisk's terms.
import type { Guid } from './guid.js';

export const PARTITION_TYPE = {
  /** EFI: vfat, the boot loader (and the UKIs with sd-boot) */
  efiSystem: 'C12A7328-F81F-11D2-BA4B-00A0C93EC93B',
  /** BIOS: GRUB's core.img, no file system */
  biosBoot: '21686148-6449-6E6F-744E-656564454649',
  /** BOOT, META, STATE, EPHEMERAL, IMAGECACHE and user volumes */
  linuxFilesystem: '0FC63DAF-8483-4772-8E79-3D69D8477DE4',
  /** user swap volumes */
  linuxSwap: '0657FD6D-A4AB-43C4-84E5-0933C84B4F4F',
  linuxLvm: 'E6D6D379-F507-44C2-A23C-238F2A3DF928',
} as const satisfies Record<string, Guid>;

export type KnownPartitionType = keyof typeof PARTITION_TYPE;

interface TypeInfo {
  readonly name: string;
  /** sgdisk's short code (`-t 1:ef00`) */
  readonly code: string;
}

const INFO: Readonly<Record<Guid, TypeInfo>> = {
  [PARTITION_TYPE.efiSystem]: { name: 'EFI system partition', code: 'EF00' },
  [PARTITION_TYPE.biosBoot]: { name: 'BIOS boot partition', code: 'EF02' },
  [PARTITION_TYPE.linuxFilesystem]: { name: 'Linux filesystem', code: '8300' },
  [PARTITION_TYPE.linuxSwap]: { name: 'Linux swap', code: '8200' },
  [PARTITION_TYPE.linuxLvm]: { name: 'Linux LVM', code: '8E00' },
};

/** partitionTypeInfo is sgdisk's name and code for a known type, undefined for others. */
export const partitionTypeInfo = (type: Guid): TypeInfo | undefined => INFO[type.toUpperCase()];
