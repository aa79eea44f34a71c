import { describe, expect, it } from 'vitest';
import { PARTITION_ATTR } from '../../../../src/sys/block/gpt/entry.js';
import { GptError } from '../../../../src/sys/block/gpt/errors.js';
import {
  addPartition,
  arraySectors,
  backupEntriesLba,
  createTable,
  deletePartition,
  findPartition,
  type GptTable,
  growLastPartition,
  growPartition,
  partitionByName,
  partitionBytes,
  partitionGrowth,
  resizeDisk,
} from '../../../../src/sys/block/gpt/table.js';
import { PARTITION_TYPE } from '../../../../src/sys/block/gpt/types.js';

const MiB = 1n << 20n;
const DISK_GUID = 'B6D003E5-7D1D-45E3-9F4B-4A2430B46D4A';
const disk64 = () => createTable({ diskSectors: 131072n, sectorSize: 512, diskGuid: DISK_GUID });

const errorOf = (f: () => unknown): GptError => {
  try {
    f();
  } catch (e) {
    if (e instanceof GptError) return e;
    throw e;
  }
  throw new Error('did not throw');
};

const add = (
  t: GptTable,
  name: string,
  size: bigint | 'rest',
  type: string = PARTITION_TYPE.linuxFilesystem,
) => addPartition(t, { name, size, type }).table;

describe('an empty table', () => {
  it('is laid out as upstream does on 512-byte sectors', () => {
    const t = disk64();
    expect(t).toMatchObject({
      sectorSize: 512,
      lastLba: 131071n,
      diskGuid: DISK_GUID,
      firstUsableLba: 2048n,
      lastUsableLba: 131038n,
      primaryEntriesLba: 2n,
      entryCount: 128,
      alignment: 2048n,
      mbrBootable: false,
      partitions: [],
    });
    expect(arraySectors(t)).toBe(32n);
    expect(backupEntriesLba(t)).toBe(131039n);
  });

  it('takes 4 sectors per array on 4096-byte sectors and aligns to 256 of them', () => {
    const t = createTable({ diskSectors: 16384n, sectorSize: 4096 });
    expect(arraySectors(t)).toBe(4n);
    expect(t.firstUsableLba).toBe(256n);
    expect(t.lastUsableLba).toBe(16378n);
    expect(t.alignment).toBe(256n);
    expect(t.diskGuid).toMatch(/^[0-9A-F]{8}-[0-9A-F]{4}-4/);
  });

  it('moves the primary array past skipped LBAs', () => {
    const t = createTable({ diskSectors: 131072n, sectorSize: 512, skipLbas: 4096 });
    expect(t.primaryEntriesLba).toBe(4098n);
    expect(t.firstUsableLba).toBe(6144n);
  });

  it('refuses bad sector sizes, alignments and disks too small', () => {
    expect(errorOf(() => createTable({ diskSectors: 131072n, sectorSize: 520 })).code).toBe(
      'invalid-argument',
    );
    expect(
      errorOf(() => createTable({ diskSectors: 131072n, sectorSize: 512, alignmentBytes: 1000 })).message,
    ).toBe('alignment of 1000 bytes is not a positive multiple of the 512-byte sector');
    expect(errorOf(() => createTable({ diskSectors: 2000n, sectorSize: 512 })).code).toBe('disk-too-small');
    expect(errorOf(() => createTable({ diskSectors: 131072n, sectorSize: 512, diskGuid: 'x' })).message).toBe(
      'disk GUID: "x" is not a GUID (want 8-4-4-4-12 hex digits)',
    );
  });
});

describe('adding partitions', () => {
  it('packs the installer’s layout on 1 MiB boundaries, numbered in order', () => {
    let t = disk64();
    const esp = addPartition(t, { name: 'EFI', size: 10n * MiB, type: PARTITION_TYPE.efiSystem });
    t = esp.table;
    expect(esp.partition).toMatchObject({ number: 1, firstLba: 2048n, lastLba: 22527n, name: 'EFI' });
    t = addPartition(t, {
      name: 'BIOS',
      size: Number(MiB),
      type: PARTITION_TYPE.biosBoot,
      attributes: PARTITION_ATTR.legacyBiosBootable,
      guid: '942d2017-052e-4216-b4e4-2110507e4cd4',
    }).table;
    t = add(t, 'META', MiB);
    t = add(t, 'EPHEMERAL', 'rest');
    expect(t.partitions.map((p) => [p.number, p.name, p.firstLba, p.lastLba])).toEqual([
      [1, 'EFI', 2048n, 22527n],
      [2, 'BIOS', 22528n, 24575n],
      [3, 'META', 24576n, 26623n],
      [4, 'EPHEMERAL', 26624n, 129023n],
    ]);
    expect(findPartition(t, 2).guid).toBe('942D2017-052E-4216-B4E4-2110507E4CD4');
    expect(findPartition(t, 2).attributes).toBe(4n);
    expect(partitionByName(t, 'META')?.number).toBe(3);
    expect(partitionBytes(t, findPartition(t, 3))).toEqual({ offset: 24576n * 512n, length: MiB });
  });

  it('rounds a size up to whole sectors and leaves its argument alone', () => {
    const before = disk64();
    const { table, partition } = addPartition(before, {
      name: 'odd',
      size: 1000,
      type: PARTITION_TYPE.linuxSwap,
    });
    expect(partition.lastLba - partition.firstLba + 1n).toBe(2n);
    expect(before.partitions).toEqual([]);
    expect(table.partitions).toHaveLength(1);
  });

  it('fills the first aligned hole that fits, under the lowest free number', () => {
    let t = add(add(add(disk64(), 'A', 4n * MiB), 'B', 4n * MiB), 'C', 4n * MiB);
    t = deletePartition(t, 2);
    const small = addPartition(t, { name: 'D', size: MiB, type: PARTITION_TYPE.linuxFilesystem });
    expect(small.partition).toMatchObject({ number: 2, firstLba: 2048n + 8192n });
    const big = addPartition(small.table, {
      name: 'E',
      size: 5n * MiB,
      type: PARTITION_TYPE.linuxFilesystem,
    });
    expect(big.partition).toMatchObject({ number: 4, firstLba: 2048n + 3n * 8192n });
  });

  it('gives "rest" the largest free extent', () => {
    let t = add(add(add(disk64(), 'A', 4n * MiB), 'B', 4n * MiB), 'C', 40n * MiB);
    t = deletePartition(t, 1);
    const rest = addPartition(t, { name: 'R', size: 'rest', type: PARTITION_TYPE.linuxFilesystem });
    expect(rest.partition).toMatchObject({ number: 1, firstLba: 2048n + 48n * 2048n, lastLba: 129023n });
  });

  it('says which partition does not fit, what it needs and what is free', () => {
    const t = add(disk64(), 'EPHEMERAL', 50n * MiB);
    const e = errorOf(() =>
      addPartition(t, { name: 'STATE', size: 100n * MiB, type: PARTITION_TYPE.linuxFilesystem }),
    );
    expect(e.code).toBe('no-space');
    expect(e.message).toBe(
      'partition "STATE": needs 100 MiB (204800 sectors), the largest aligned free extent is 12 MiB',
    );
    const full = add(disk64(), 'ALL', 'rest');
    expect(errorOf(() => add(full, 'MORE', 'rest')).code).toBe('no-space');
  });

  it('refuses bad names, types, sizes and numbers', () => {
    const t = disk64();
    expect(errorOf(() => add(t, 'X'.repeat(37), MiB)).code).toBe('name-too-long');
    expect(errorOf(() => add(t, 'T', MiB, 'efi')).message).toBe(
      'partition "T" type: "efi" is not a GUID (want 8-4-4-4-12 hex digits)',
    );
    expect(errorOf(() => add(t, 'Z', 0n)).message).toBe('partition "Z": size 0 must be positive');
    expect(
      errorOf(() => addPartition(t, { name: 'F', size: 1.5, type: PARTITION_TYPE.linuxSwap })).code,
    ).toBe('invalid-argument');
    const one = addPartition(t, { name: 'A', size: MiB, type: PARTITION_TYPE.linuxSwap, number: 5 }).table;
    expect(findPartition(one, 5).name).toBe('A');
    expect(
      errorOf(() => addPartition(one, { name: 'B', size: MiB, type: PARTITION_TYPE.linuxSwap, number: 5 }))
        .code,
    ).toBe('partition-exists');
    expect(
      errorOf(() => addPartition(one, { name: 'B', size: MiB, type: PARTITION_TYPE.linuxSwap, number: 129 }))
        .code,
    ).toBe('invalid-argument');
  });

  it('runs out of entries after 128 partitions', () => {
    let t = createTable({ diskSectors: 300_000n, sectorSize: 512, alignmentBytes: 512 });
    for (let i = 0; i < 128; i++) t = add(t, `p${i}`, 512n);
    expect(t.partitions).toHaveLength(128);
    expect(errorOf(() => add(t, 'one-more', 512n)).code).toBe('no-free-entry');
  });
});

describe('deleting and growing', () => {
  it('deletes by number, and says when the number is not there', () => {
    const t = add(add(disk64(), 'A', MiB), 'B', MiB);
    expect(deletePartition(t, 1).partitions.map((p) => p.name)).toEqual(['B']);
    expect(errorOf(() => deletePartition(t, 3)).message).toBe('partition 3 is not in the table');
  });

  it('grows into the room before the next partition, or by a given size', () => {
    let t = add(add(add(disk64(), 'A', 4n * MiB), 'B', 4n * MiB), 'C', 4n * MiB);
    t = deletePartition(t, 2);
    expect(partitionGrowth(t, 1)).toBe(4n * MiB);
    expect(findPartition(growPartition(t, 1), 1).lastLba).toBe(2048n + 16384n - 1n);
    expect(findPartition(growPartition(t, 1, MiB), 1).lastLba).toBe(2048n + 10240n - 1n);
    const e = errorOf(() => growPartition(t, 1, 5n * MiB));
    expect(e.code).toBe('no-space');
    expect(e.message).toBe('partition 1 ("A"): growing by 5 MiB needs 10240 sectors, 8192 are free after it');
    expect(partitionGrowth(t, 3)).toBe(50n * MiB); // from LBA 26624 to the aligned end, 129023
  });

  it('grows the last partition to an aligned end and never shrinks one', () => {
    const t = add(disk64(), 'E', 10n * MiB);
    expect(findPartition(growPartition(t, 1), 1).lastLba).toBe(129023n);
    const unaligned: GptTable = {
      ...t,
      partitions: t.partitions.map((p) => ({ ...p, lastLba: t.lastUsableLba })),
    };
    expect(partitionGrowth(unaligned, 1)).toBe(0n);
    expect(findPartition(growPartition(unaligned, 1), 1).lastLba).toBe(t.lastUsableLba);
  });

  it('moves the backup to the end of a grown disk and grows the last partition into it', () => {
    const t = add(add(disk64(), 'STATE', 10n * MiB), 'EPHEMERAL', 'rest');
    const grown = growLastPartition(t, 262144n);
    expect(grown.lastLba).toBe(262143n);
    expect(grown.lastUsableLba).toBe(262110n);
    expect(backupEntriesLba(grown)).toBe(262111n);
    expect(findPartition(grown, 2).lastLba).toBe(260095n);
    expect(findPartition(grown, 1)).toEqual(findPartition(t, 1));
    expect(t.lastLba).toBe(131071n);
  });

  it('refuses to shrink a disk under a partition', () => {
    const t = add(disk64(), 'EPHEMERAL', 'rest');
    const e = errorOf(() => resizeDisk(t, 65536n));
    expect(e.code).toBe('out-of-range');
    expect(e.message).toBe(
      'partition 1 ("EPHEMERAL") ends at LBA 129023, past the last usable LBA 65502 of a disk of 65536 sectors',
    );
    expect(errorOf(() => growLastPartition(disk64(), 262144n)).code).toBe('partition-not-found');
  });
});
