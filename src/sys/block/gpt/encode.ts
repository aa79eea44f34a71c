// A table as the sectors to write, in two groups: the backup copy, then the primary copy with the
// protective MBR. device.ts flushes between the groups, so one copy is always whole on the disk.
import { crc32 } from './crc32.js';
import { encodeEntryArray } from './entry.js';
import { encodeHeader, GPT_ENTRY_SIZE, GPT_HEADER_SIZE, GPT_REVISION, type GptHeader } from './header.js';
import { encodeProtectiveMbr, MBR_SIZE } from './mbr.js';
import { arraySectors, backupEntriesLba, type GptTable } from './table.js';
import { validateTable } from './validate.js';

export interface SectorWrite {
  readonly lba: bigint;
  /** a whole number of sectors */
  readonly data: Buffer;
}

export interface EncodedGpt {
  /** the backup array, then the backup header */
  readonly backup: readonly SectorWrite[];
  /** the primary array, the primary header, then LBA 0 with the protective MBR */
  readonly primary: readonly SectorWrite[];
}

export interface EncodeOptions {
  /** LBA 0 as it is now: its boot code, disk signature and any bytes past the first 512 are kept */
  readonly sector0?: Uint8Array;
}

/** encodeGpt checks the table and lays out every sector it owns. */
export function encodeGpt(t: GptTable, opts: EncodeOptions = {}): EncodedGpt {
  validateTable(t);
  const ss = t.sectorSize;
  const array = Buffer.alloc(Number(arraySectors(t)) * ss);
  encodeEntryArray(t.partitions, t.entryCount).copy(array);
  const common = {
    revision: GPT_REVISION,
    headerSize: GPT_HEADER_SIZE,
    firstUsableLba: t.firstUsableLba,
    lastUsableLba: t.lastUsableLba,
    diskGuid: t.diskGuid,
    entryCount: t.entryCount,
    entrySize: GPT_ENTRY_SIZE,
    entriesCrc: crc32(array.subarray(0, t.entryCount * GPT_ENTRY_SIZE)),
  };
  const primaryHeader: GptHeader = {
    ...common,
    myLba: 1n,
    alternateLba: t.lastLba,
    entriesLba: t.primaryEntriesLba,
  };
  const backupHeader: GptHeader = {
    ...common,
    myLba: t.lastLba,
    alternateLba: 1n,
    entriesLba: backupEntriesLba(t),
  };
  const sector0 = Buffer.alloc(ss);
  if (opts.sector0) sector0.set(opts.sector0.subarray(0, ss));
  const keep = opts.sector0?.subarray(0, MBR_SIZE);
  encodeProtectiveMbr(t.lastLba + 1n, { bootable: t.mbrBootable, ...(keep ? { keep } : {}) }).copy(sector0);
  return {
    backup: [
      { lba: backupHeader.entriesLba, data: array },
      { lba: t.lastLba, data: encodeHeader(backupHeader, ss) },
    ],
    primary: [
      { lba: t.primaryEntriesLba, data: array },
      { lba: 1n, data: encodeHeader(primaryHeader, ss) },
      { lba: 0n, data: sector0 },
    ],
  };
}

/** SectorRange is `count` sectors from `lba`. */
export interface SectorRange {
  readonly lba: bigint;
  readonly count: bigint;
}

/**
 * wipeRanges lists what to zero so no GPT is found again: LBA 0 to the end of the standard primary array,
 * and the backup array and header at the disk's end; plus, for a table that was readable, its own arrays
 * and backup header wherever they are (a grown disk still has its old backup in the middle).
 */
export function wipeRanges(sectorSize: number, diskSectors: bigint, table?: GptTable): SectorRange[] {
  const standard = arraySectors({ entryCount: 128, sectorSize });
  const last = diskSectors - 1n;
  const out: SectorRange[] = [
    { lba: 0n, count: 2n + standard },
    { lba: last - standard, count: standard + 1n },
  ];
  if (table) {
    const own = arraySectors(table);
    out.push({ lba: table.primaryEntriesLba, count: own });
    if (table.lastLba <= last) out.push({ lba: table.lastLba - own, count: own + 1n });
  }
  return out.filter((r) => r.lba >= 0n && r.lba + r.count <= diskSectors);
}
