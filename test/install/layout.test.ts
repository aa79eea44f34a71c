import { describe, expect, it } from 'vitest';
import { isInstallError } from '../../src/install/errors.js';
import {
  bootPartitions,
  minimumDiskBytes,
  PARTITION_SIZES,
  partitionOf,
  planLayout,
} from '../../src/install/layout.js';
import { guidFromLabel, PARTITION_ATTR, PARTITION_TYPE } from '../../src/sys/block/gpt/index.js';

const MiB = 1n << 20n;
const GiB = 1n << 30n;

const thrown = (fn: () => unknown): unknown => {
  try {
    fn();
  } catch (e) {
    return e;
  }
  throw new Error('did not throw');
};

describe('bootPartitions', () => {
  it('sd-boot: EFI then META, as upstream; EFI holds the UKI slots and their components layers', () => {
    const p = bootPartitions('sd-boot');
    expect(p.map((x) => x.label)).toEqual(['EFI', 'META']);
    expect(p[0]).toMatchObject({ type: PARTITION_TYPE.efiSystem, sizeBytes: 512n * MiB, content: 'vfat' });
    expect(p[1]).toMatchObject({ type: PARTITION_TYPE.linuxFilesystem, sizeBytes: MiB, content: 'zeroes' });
  });

  it('grub and dual: EFI, BIOS, BOOT, META; the BIOS partition legacy-BIOS-bootable, BOOT xfs', () => {
    for (const b of ['grub', 'dual'] as const) {
      const p = bootPartitions(b);
      expect(p.map((x) => x.label)).toEqual(['EFI', 'BIOS', 'BOOT', 'META']);
      expect(p[1]).toMatchObject({
        type: PARTITION_TYPE.biosBoot,
        sizeBytes: MiB,
        attributes: PARTITION_ATTR.legacyBiosBootable,
      });
      expect(p[2]).toMatchObject({
        type: PARTITION_TYPE.linuxFilesystem,
        sizeBytes: 512n * MiB,
        content: 'xfs',
      });
      expect(p[3]!.sizeBytes).toBe(1048576n);
    }
    // GRUB alone keeps upstream's 100 MiB EFI (no UKI on it); dual holds the UKI slots (its layers on BOOT)
    expect(bootPartitions('grub')[0]!.sizeBytes).toBe(100n * MiB);
    expect(bootPartitions('dual')[0]!.sizeBytes).toBe(PARTITION_SIZES.efiUki);
    expect(PARTITION_SIZES.efiUki).toBe(256n * MiB);
  });

  it('refuses an unknown bootloader', () => {
    const e = thrown(() => bootPartitions('lilo' as 'grub'));
    expect(isInstallError(e, 'invalid-argument')).toBe(true);
    expect((e as Error).message).toMatch(/lilo.*sd-boot, grub, dual/);
  });
});

describe('planLayout', () => {
  it('places the partitions from 1 MiB on, back to back, numbered in order, the rest of the disk free', () => {
    const l = planLayout({ diskBytes: 8n * GiB, sectorSize: 512, bootloader: 'dual' });
    expect(l.partitions.map((p) => [p.label, p.number, p.firstLba])).toEqual([
      ['EFI', 1, 2048n],
      ['BIOS', 2, 2048n + 256n * 2048n],
      ['BOOT', 3, 2048n + 257n * 2048n],
      ['META', 4, 2048n + 769n * 2048n],
    ]);
    const t = l.table;
    expect(t.partitions.map((p) => p.name)).toEqual(['EFI', 'BIOS', 'BOOT', 'META']);
    expect(t.partitions[3]!.lastLba).toBe(2048n + 770n * 2048n - 1n);
    expect(t.lastUsableLba).toBeGreaterThan((7n * GiB) / 512n);
    expect(partitionOf(l, 'BOOT')!.offsetBytes).toBe(258n * MiB);
    // BOOT is gpt3 in every layout with GRUB: core.img's prefix (,gpt3)/grub depends on it
    expect(
      partitionOf(planLayout({ diskBytes: GiB, sectorSize: 512, bootloader: 'grub' }), 'BOOT')!.number,
    ).toBe(3);
  });

  it('gives random GUIDs to an install, label-derived ones to a disk image', () => {
    const a = planLayout({ diskBytes: GiB, sectorSize: 512, bootloader: 'sd-boot' });
    const b = planLayout({ diskBytes: GiB, sectorSize: 512, bootloader: 'sd-boot' });
    expect(a.table.diskGuid).not.toBe(b.table.diskGuid);
    expect(a.table.partitions[0]!.guid).not.toBe(b.table.partitions[0]!.guid);
    const img = planLayout({ diskBytes: GiB, sectorSize: 512, bootloader: 'sd-boot', deterministic: true });
    expect(img.table.diskGuid).toBe(guidFromLabel('talos-image-disk'));
    expect(img.table.partitions.map((p) => p.guid)).toEqual([guidFromLabel('EFI'), guidFromLabel('META')]);
  });

  it('lays out 4 KiB sectors for sd-boot, and refuses GRUB there', () => {
    const l = planLayout({ diskBytes: GiB, sectorSize: 4096, bootloader: 'sd-boot' });
    expect(l.partitions.map((p) => [p.label, p.firstLba])).toEqual([
      ['EFI', 256n],
      ['META', 256n + 512n * 256n],
    ]);
    const e = thrown(() => planLayout({ diskBytes: GiB, sectorSize: 4096, bootloader: 'dual' }));
    expect(isInstallError(e, 'invalid-argument')).toBe(true);
    expect((e as Error).message).toMatch(/512-byte sectors only/);
  });

  it('fits the smallest disk it names, and refuses one a sector smaller', () => {
    for (const b of ['sd-boot', 'grub', 'dual'] as const) {
      const min = minimumDiskBytes(b);
      expect(planLayout({ diskBytes: min, sectorSize: 512, bootloader: b }).partitions).toHaveLength(
        bootPartitions(b).length,
      );
      const e = thrown(() => planLayout({ diskBytes: min - 512n, sectorSize: 512, bootloader: b }));
      expect(isInstallError(e, 'disk-too-small')).toBe(true);
    }
    expect(minimumDiskBytes('dual')).toBe(772n * MiB);
    expect(minimumDiskBytes('sd-boot')).toBe(515n * MiB);
    expect(
      (thrown(() => planLayout({ diskBytes: 500n * MiB, sectorSize: 512, bootloader: 'dual' })) as Error)
        .message,
    ).toMatch(/at least 772 MiB, this one has 500 MiB/);
  });
});
