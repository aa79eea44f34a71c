import { describe, expect, it } from 'vitest';
import { crc32 } from '../../../../src/sys/block/gpt/crc32.js';
import { decodeGpt } from '../../../../src/sys/block/gpt/decode.js';
import { encodeGpt } from '../../../../src/sys/block/gpt/encode.js';
import { encodeEntryArray, PARTITION_ATTR } from '../../../../src/sys/block/gpt/entry.js';
import { GptError, isGptCorrupt } from '../../../../src/sys/block/gpt/errors.js';
import { encodeHeader } from '../../../../src/sys/block/gpt/header.js';
import { addPartition, createTable, type GptTable, resizeDisk } from '../../../../src/sys/block/gpt/table.js';
import { PARTITION_TYPE } from '../../../../src/sys/block/gpt/types.js';
import { type MemoryDisk, memoryDisk } from './memory-disk.js';

const MiB = 1n << 20n;

function layout(diskSectors: number, sectorSize: number): GptTable {
  let t = createTable({ diskSectors: BigInt(diskSectors), sectorSize, mbrBootable: true });
  t = addPartition(t, { name: 'EFI', size: MiB, type: PARTITION_TYPE.efiSystem }).table;
  t = addPartition(t, {
    name: 'BIOS',
    size: MiB,
    type: PARTITION_TYPE.biosBoot,
    attributes: PARTITION_ATTR.legacyBiosBootable,
  }).table;
  return addPartition(t, { name: 'EPHEMERAL', size: 'rest', type: PARTITION_TYPE.linuxFilesystem }).table;
}

function written(t: GptTable): MemoryDisk {
  const d = memoryDisk(Number(t.lastLba + 1n), t.sectorSize);
  const s = encodeGpt(t);
  d.apply(s.backup);
  d.apply(s.primary);
  return d;
}

async function rejection(p: Promise<unknown>): Promise<GptError> {
  try {
    await p;
  } catch (e) {
    if (e instanceof GptError) return e;
    throw e;
  }
  throw new Error('did not reject');
}

describe('decodeGpt', () => {
  it.each([
    [16384, 512],
    [2048, 4096],
  ])('reads back what was written (%d sectors of %d bytes)', async (sectors, ss) => {
    const t = layout(sectors, ss);
    const got = await decodeGpt(written(t).read, { sectorSize: ss, diskSectors: BigInt(sectors) });
    expect(got.source).toBe('primary');
    expect(got.problems).toEqual([]);
    expect(got.mbr).toEqual({ kind: 'protective', bootable: true });
    expect(got.table).toEqual(t);
  });

  it('falls back to the backup when the primary header is damaged, and says so', async () => {
    const t = layout(16384, 512);
    const d = written(t);
    d.sector(1n)[60] = (d.sector(1n)[60] ?? 0) ^ 0xff;
    const got = await decodeGpt(d.read, d.shape);
    expect(got.source).toBe('backup');
    expect(got.table).toEqual(t);
    expect(got.problems).toHaveLength(1);
    expect(got.problems[0]).toMatch(/^primary header \(LBA 1\): header CRC is 0x/);
  });

  it('falls back to the backup when the primary array is damaged', async () => {
    const t = layout(16384, 512);
    const d = written(t);
    d.sector(2n)[0] = (d.sector(2n)[0] ?? 0) ^ 1;
    const got = await decodeGpt(d.read, d.shape);
    expect(got.source).toBe('backup');
    expect(got.table.partitions).toEqual(t.partitions);
    expect(got.problems[0]).toMatch(/^primary entry array \(LBA 2\): CRC is 0x[0-9a-f]{8}, its header says/);
  });

  it('uses the primary and reports a damaged backup', async () => {
    const t = layout(16384, 512);
    const d = written(t);
    d.sector(16383n).fill(0);
    const got = await decodeGpt(d.read, d.shape);
    expect(got.source).toBe('primary');
    expect(got.table).toEqual(t);
    expect(got.problems).toEqual(['backup header (LBA 16383): no "EFI PART" signature']);
  });

  it('throws a typed error naming both copies when both are damaged', async () => {
    const d = written(layout(16384, 512));
    d.sector(1n)[0] = 0;
    d.sector(16383n - 32n)[5] = (d.sector(16383n - 32n)[5] ?? 0) ^ 1;
    const e = await rejection(decodeGpt(d.read, d.shape));
    expect(e.code).toBe('no-table');
    expect(isGptCorrupt(e)).toBe(true);
    expect(e.message).toMatch(
      /^no valid GPT: primary header \(LBA 1\): no "EFI PART" signature; backup entry array \(LBA 16351\): CRC is/,
    );
    const blank = memoryDisk(16384, 512);
    expect((await rejection(decodeGpt(blank.read, blank.shape))).code).toBe('no-table');
  });

  it('refuses a header whose self-pointer or ranges do not fit the disk', async () => {
    const t = layout(16384, 512);
    const d = written(t);
    const s = encodeGpt(t);
    // a CRC-valid primary that claims to be somewhere else: the backup is used
    const lying = encodeHeader(
      {
        revision: 0x10000,
        headerSize: 92,
        myLba: 5n,
        alternateLba: 16383n,
        firstUsableLba: t.firstUsableLba,
        lastUsableLba: t.lastUsableLba,
        diskGuid: t.diskGuid,
        entriesLba: 2n,
        entryCount: 128,
        entrySize: 128,
        entriesCrc: 0,
      },
      512,
    );
    lying.copy(d.bytes, 512);
    const got = await decodeGpt(d.read, d.shape);
    expect(got.source).toBe('backup');
    expect(got.problems[0]).toBe('primary header (LBA 1): says it is at LBA 5');
    expect(s.primary[1]?.lba).toBe(1n);
  });

  it('refuses overlapping partitions even with valid CRCs', async () => {
    const t = layout(16384, 512);
    const bad = {
      ...t,
      partitions: t.partitions.map((p) => (p.number === 1 ? { ...p, lastLba: 4096n } : p)),
    };
    // lay the bad table out by hand: encodeGpt would refuse it
    const d = memoryDisk(16384, 512);
    const good = encodeGpt(t);
    d.apply(good.backup);
    d.apply(good.primary);
    const array = encodeEntryArray(bad.partitions, 128);
    for (const [lba, headerLba, alternate] of [
      [2n, 1n, 16383n],
      [16351n, 16383n, 1n],
    ] as const) {
      array.copy(d.bytes, Number(lba) * 512);
      encodeHeader(
        {
          revision: 0x10000,
          headerSize: 92,
          myLba: headerLba,
          alternateLba: alternate,
          firstUsableLba: t.firstUsableLba,
          lastUsableLba: t.lastUsableLba,
          diskGuid: t.diskGuid,
          entriesLba: lba,
          entryCount: 128,
          entrySize: 128,
          entriesCrc: crc32(array),
        },
        512,
      ).copy(d.bytes, Number(headerLba) * 512);
    }
    const e = await rejection(decodeGpt(d.read, d.shape));
    expect(e.code).toBe('overlap');
    expect(e.message).toMatch(/^primary table: partition 1 \(LBA 2048\.\.4096\) and partition 2/);
  });

  it('reports a disk that grew, and finds the backup where the primary says', async () => {
    const t = layout(16384, 512);
    const d = memoryDisk(32768, 512);
    const s = encodeGpt(t);
    d.apply(s.backup);
    d.apply(s.primary);
    const got = await decodeGpt(d.read, d.shape);
    expect(got.source).toBe('primary');
    expect(got.table.lastLba).toBe(16383n);
    expect(got.problems).toEqual([
      "the backup header is at LBA 16383, not at the disk's last LBA 32767: the disk grew (resizeDisk moves it)",
    ]);
    const moved = resizeDisk(got.table, 32768n);
    const again = encodeGpt(moved);
    d.apply(again.backup);
    d.apply(again.primary);
    expect((await decodeGpt(d.read, d.shape)).problems).toEqual([]);
  });

  it('finds a whole table whenever a rewrite stops, the backup group written first', async () => {
    const old = layout(16384, 512);
    const next = addPartition(createTable({ diskSectors: 16384n, sectorSize: 512 }), {
      name: 'NEW',
      size: MiB,
      type: PARTITION_TYPE.linuxSwap,
    }).table;
    const s = encodeGpt(next);
    // stopped after the backup group: the old primary still wins, whole
    const afterBackup = written(old);
    afterBackup.apply(s.backup);
    const a = await decodeGpt(afterBackup.read, afterBackup.shape);
    expect([a.source, a.table.partitions]).toEqual(['primary', old.partitions]);
    expect(a.problems).toContain('the backup entry array differs from the primary');
    // stopped inside the primary group: the array is new, the header still old, so its CRC fails
    const torn = written(old);
    torn.apply(s.backup);
    torn.apply(s.primary.slice(0, 1));
    const b = await decodeGpt(torn.read, torn.shape);
    expect([b.source, b.table.partitions]).toEqual(['backup', next.partitions]);
    // both groups: the new table, no problems
    torn.apply(s.primary);
    expect(await decodeGpt(torn.read, torn.shape)).toMatchObject({ source: 'primary', problems: [] });
  });
});
