import { describe, expect, it } from 'vitest';
import { crc32 } from '../../../../src/sys/block/gpt/crc32.js';
import { encodeGpt, wipeRanges } from '../../../../src/sys/block/gpt/encode.js';
import { GptError } from '../../../../src/sys/block/gpt/errors.js';
import { decodeHeader } from '../../../../src/sys/block/gpt/header.js';
import { decodeMbr } from '../../../../src/sys/block/gpt/mbr.js';
import { addPartition, createTable, growLastPartition } from '../../../../src/sys/block/gpt/table.js';
import { PARTITION_TYPE } from '../../../../src/sys/block/gpt/types.js';

const table = () =>
  addPartition(createTable({ diskSectors: 131072n, sectorSize: 512, mbrBootable: true }), {
    name: 'EFI',
    size: 10n << 20n,
    type: PARTITION_TYPE.efiSystem,
  }).table;

describe('encodeGpt', () => {
  it('writes the backup group first, then the primary with LBA 0 last', () => {
    const s = encodeGpt(table());
    expect(s.backup.map((w) => [w.lba, w.data.length])).toEqual([
      [131039n, 16384],
      [131071n, 512],
    ]);
    expect(s.primary.map((w) => [w.lba, w.data.length])).toEqual([
      [2n, 16384],
      [1n, 512],
      [0n, 512],
    ]);
  });

  it('points each header at the other and at its own array, with the array’s CRC', () => {
    const s = encodeGpt(table());
    const primary = decodeHeader(s.primary[1]!.data, 'primary');
    const backup = decodeHeader(s.backup[1]!.data, 'backup');
    expect([primary.myLba, primary.alternateLba, primary.entriesLba]).toEqual([1n, 131071n, 2n]);
    expect([backup.myLba, backup.alternateLba, backup.entriesLba]).toEqual([131071n, 1n, 131039n]);
    expect(primary.entriesCrc).toBe(crc32(s.primary[0]!.data));
    expect(backup.entriesCrc).toBe(primary.entriesCrc);
    expect(decodeMbr(s.primary[2]!.data)).toEqual({ kind: 'protective', bootable: true });
  });

  it('keeps LBA 0’s boot code and, on 4096-byte sectors, the bytes past the MBR', () => {
    const t = createTable({ diskSectors: 16384n, sectorSize: 4096 });
    const old = Buffer.alloc(4096, 0x5a);
    const lba0 = encodeGpt(t, { sector0: old }).primary[2]!.data;
    expect(lba0.length).toBe(4096);
    expect(lba0.subarray(0, 440).equals(old.subarray(0, 440))).toBe(true);
    expect(lba0.subarray(512).equals(old.subarray(512))).toBe(true);
    expect(lba0.readUInt32LE(446 + 12)).toBe(16383);
  });

  it('refuses to lay out an invalid table', () => {
    const t = table();
    const bad = { ...t, partitions: t.partitions.map((p) => ({ ...p, lastLba: t.lastUsableLba + 1n })) };
    expect(() => encodeGpt(bad)).toThrow(GptError);
  });
});

describe('wipeRanges', () => {
  it('covers the fixed places and a grown disk’s old backup', () => {
    const t = table();
    const grown = growLastPartition(t, 262144n);
    expect(wipeRanges(512, 262144n)).toEqual([
      { lba: 0n, count: 34n },
      { lba: 262111n, count: 33n },
    ]);
    expect(wipeRanges(512, 262144n, t)).toContainEqual({ lba: 131039n, count: 33n });
    expect(wipeRanges(512, 262144n, grown)).toContainEqual({ lba: 262111n, count: 33n });
    expect(wipeRanges(4096, 16384n)).toEqual([
      { lba: 0n, count: 6n },
      { lba: 16379n, count: 5n },
    ]);
  });
});
