// The installer's layout (talos-boot §4) in the sizes a test image can hold, with upstream's
// deterministic image GUIDs so every field has a known value to compare.
import { PARTITION_ATTR } from '../../../../src/sys/block/gpt/entry.js';
import { DISK_IMAGE_LABEL, guidFromLabel } from '../../../../src/sys/block/gpt/label-guid.js';
import { addPartition, createTable, type GptTable } from '../../../../src/sys/block/gpt/table.js';
import { PARTITION_TYPE } from '../../../../src/sys/block/gpt/types.js';

const MiB = 1n << 20n;

/** SMALL fits 64 MiB; UPSTREAM is the real installer's (GRUB layout), for a 2 GiB image. */
export const SMALL = { EFI: 10n * MiB, BIOS: MiB, BOOT: 20n * MiB, META: MiB, STATE: 10n * MiB } as const;
export const UPSTREAM = {
  EFI: 100n * MiB,
  BIOS: MiB,
  BOOT: 1000n * MiB,
  META: MiB,
  STATE: 100n * MiB,
} as const;

export function installerLayout(
  diskSectors: bigint,
  sectorSize: number,
  sizes: Record<keyof typeof SMALL, bigint>,
): GptTable {
  let t = createTable({
    diskSectors,
    sectorSize,
    diskGuid: guidFromLabel(DISK_IMAGE_LABEL),
    mbrBootable: true,
  });
  const part = (name: string, size: bigint | 'rest', type: string, attributes = 0n) => {
    t = addPartition(t, { name, size, type, attributes, guid: guidFromLabel(name) }).table;
  };
  part('EFI', sizes.EFI, PARTITION_TYPE.efiSystem);
  part('BIOS', sizes.BIOS, PARTITION_TYPE.biosBoot, PARTITION_ATTR.legacyBiosBootable);
  part('BOOT', sizes.BOOT, PARTITION_TYPE.linuxFilesystem);
  part('META', sizes.META, PARTITION_TYPE.linuxFilesystem);
  part('STATE', sizes.STATE, PARTITION_TYPE.linuxFilesystem);
  part('EPHEMERAL', 'rest', PARTITION_TYPE.linuxFilesystem);
  return t;
}
