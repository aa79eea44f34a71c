// The table model and its operations, as pure functions over plain data: each returns a new table and
// leaves its argument alone. Layout follows upstream's go-blockdevice: 128 entries, the primary array at
// LBA 2 (later with its skip option), the first usable LBA rounded up to the alignment, partition starts
// aligned to 1 MiB, the backup array just before the backup header on the last LBA.
import { checkName, type Partition, partitionSectors } from './entry.js';
import { GptError } from './errors.js';
import {
  alignDown,
  alignedWhole,
  alignUp,
  type Extent,
  earliestLba,
  extentSectors,
  freeExtents,
  laterLba,
} from './extents.js';
import { type Guid, parseGuid, randomGuid } from './guid.js';
import { GPT_ENTRY_COUNT, GPT_ENTRY_SIZE } from './header.js';
import { sizeText } from './size-text.js';

export const DEFAULT_ALIGNMENT_BYTES = 1 << 20;

export interface GptTable {
  /** logical sector size in bytes: 512 or 4096 (any power of two in between works the same way) */
  readonly sectorSize: number;
  /** the LBA of the backup header: the disk's last sector when the table was laid out */
  readonly lastLba: bigint;
  readonly diskGuid: Guid;
  readonly firstUsableLba: bigint;
  readonly lastUsableLba: bigint;
  /** where the primary entry array starts: LBA 2, or later when LBAs were skipped for a board's loader */
  readonly primaryEntriesLba: bigint;
  readonly entryCount: number;
  /** partition starts are placed on multiples of this many sectors */
  readonly alignment: bigint;
  /** the protective MBR's 0xEE entry is marked active, for legacy BIOSes that want one */
  readonly mbrBootable: boolean;
  /** in entry-number order */
  readonly partitions: readonly Partition[];
}

/** arraySectors is how many sectors one copy of the entry array takes. */
export const arraySectors = (t: Pick<GptTable, 'entryCount' | 'sectorSize'>): bigint =>
  BigInt(Math.ceil((t.entryCount * GPT_ENTRY_SIZE) / t.sectorSize));

/** backupEntriesLba is where the backup array starts: right before the backup header. */
export const backupEntriesLba = (t: GptTable): bigint => t.lastLba - arraySectors(t);

export function checkSectorSize(sectorSize: number): void {
  if (
    !Number.isInteger(sectorSize) ||
    sectorSize < 512 ||
    sectorSize > 4096 ||
    (sectorSize & (sectorSize - 1)) !== 0
  )
    throw new GptError('invalid-argument', `logical sector size ${sectorSize}: want 512, 1024, 2048 or 4096`);
}

export function alignmentSectors(alignmentBytes: number, sectorSize: number): bigint {
  if (
    !Number.isSafeInteger(alignmentBytes) ||
    alignmentBytes < sectorSize ||
    alignmentBytes % sectorSize !== 0
  )
    throw new GptError(
      'invalid-argument',
      `alignment of ${alignmentBytes} bytes is not a positive multiple of the ${sectorSize}-byte sector`,
    );
  return BigInt(alignmentBytes / sectorSize);
}

export interface CreateTableOptions {
  /** the disk's size in logical sectors */
  readonly diskSectors: bigint;
  readonly sectorSize: number;
  /** a fixed disk GUID (a deterministic one for images: guidFromLabel(DISK_IMAGE_LABEL)); random if absent */
  readonly diskGuid?: Guid;
  /** partition start alignment, 1 MiB unless given */
  readonly alignmentBytes?: number;
  /** sectors left free between the primary header and its array, for a board's boot loader (upstream's SkipLBAs) */
  readonly skipLbas?: number;
  readonly mbrBootable?: boolean;
}

/** createTable lays out an empty table for a disk. */
export function createTable(o: CreateTableOptions): GptTable {
  checkSectorSize(o.sectorSize);
  const alignment = alignmentSectors(o.alignmentBytes ?? DEFAULT_ALIGNMENT_BYTES, o.sectorSize);
  const skip = o.skipLbas ?? 0;
  if (!Number.isSafeInteger(skip) || skip < 0)
    throw new GptError('invalid-argument', `skipLbas ${skip} is not a count of sectors`);
  const geometry = { entryCount: GPT_ENTRY_COUNT, sectorSize: o.sectorSize };
  const primaryEntriesLba = 2n + BigInt(skip);
  const lastLba = o.diskSectors - 1n;
  const t: GptTable = {
    ...geometry,
    lastLba,
    diskGuid: o.diskGuid === undefined ? randomGuid() : parseGuid(o.diskGuid, 'disk GUID'),
    firstUsableLba: alignUp(primaryEntriesLba + arraySectors(geometry), alignment),
    lastUsableLba: lastLba - arraySectors(geometry) - 1n,
    primaryEntriesLba,
    alignment,
    mbrBootable: o.mbrBootable ?? false,
    partitions: [],
  };
  if (t.lastUsableLba < t.firstUsableLba)
    throw new GptError(
      'disk-too-small',
      `a disk of ${o.diskSectors} ${o.sectorSize}-byte sectors has no room for partitions after both GPT copies`,
    );
  return t;
}

export interface PartitionSpec {
  /** the partition label: at most 36 UTF-16 code units */
  readonly name: string;
  readonly type: Guid;
  /** bytes (rounded up to whole sectors), or 'rest': the largest free extent, in whole alignment units */
  readonly size: bigint | number | 'rest';
  /** a fixed unique GUID (guidFromLabel(name) for reproducible images); random if absent */
  readonly guid?: Guid;
  /** attribute bits (PARTITION_ATTR) */
  readonly attributes?: bigint;
  /** the entry number to use; the lowest free one if absent */
  readonly number?: number;
}

/**
 * addPartition places a partition at the start of the first free extent, aligned, that holds it ('rest'
 * takes the largest extent instead, as sgdisk's default does), under the lowest free entry number.
 */
export function addPartition(t: GptTable, spec: PartitionSpec): { table: GptTable; partition: Partition } {
  const what = `partition ${JSON.stringify(spec.name)}`;
  checkName(spec.name, what);
  const type = parseGuid(spec.type, `${what} type`);
  const guid = spec.guid === undefined ? randomGuid() : parseGuid(spec.guid, `${what} GUID`);
  const number = spec.number ?? lowestFreeNumber(t, what);
  if (!Number.isInteger(number) || number < 1 || number > t.entryCount)
    throw new GptError(
      'invalid-argument',
      `${what}: number ${number} is outside the array's 1..${t.entryCount}`,
    );
  if (t.partitions.some((p) => p.number === number))
    throw new GptError('partition-exists', `${what}: entry ${number} is already in use`);
  const place = placement(t, spec.size, what);
  const partition: Partition = {
    number,
    type,
    guid,
    firstLba: place.first,
    lastLba: place.last,
    attributes: spec.attributes ?? 0n,
    name: spec.name,
  };
  const partitions = [...t.partitions, partition].sort((a, b) => a.number - b.number);
  return { table: { ...t, partitions }, partition };
}

function lowestFreeNumber(t: GptTable, what: string): number {
  const used = new Set(t.partitions.map((p) => p.number));
  for (let n = 1; n <= t.entryCount; n++) if (!used.has(n)) return n;
  throw new GptError('no-free-entry', `${what}: all ${t.entryCount} entries are in use`);
}

function placement(t: GptTable, size: PartitionSpec['size'], what: string): Extent {
  const free = freeExtents(t.partitions, t.firstUsableLba, t.lastUsableLba);
  const whole = free.map((e) => alignedWhole(e, t.alignment)).filter((e): e is Extent => e !== undefined);
  const largest = whole.reduce<Extent | undefined>(
    (best, e) => (!best || extentSectors(e) > extentSectors(best) ? e : best),
    undefined,
  );
  const available = largest ? extentSectors(largest) * BigInt(t.sectorSize) : 0n;
  if (size === 'rest') {
    if (!largest)
      throw new GptError('no-space', `${what}: no aligned free space is left for the rest of the disk`);
    return largest;
  }
  const sectors = sectorsFor(size, t.sectorSize, what);
  for (const e of free) {
    const first = alignUp(e.first, t.alignment);
    const last = first + sectors - 1n;
    if (last <= e.last) return { first, last };
  }
  throw new GptError(
    'no-space',
    `${what}: needs ${sizeText(sectors * BigInt(t.sectorSize))} (${sectors} sectors), the largest aligned free extent is ${sizeText(available)}`,
  );
}

function sectorsFor(size: bigint | number, sectorSize: number, what: string): bigint {
  if (typeof size === 'number' && !Number.isSafeInteger(size))
    throw new GptError('invalid-argument', `${what}: size ${size} is not a whole number of bytes`);
  const bytes = BigInt(size);
  if (bytes <= 0n) throw new GptError('invalid-argument', `${what}: size ${bytes} must be positive`);
  const ss = BigInt(sectorSize);
  return (bytes + ss - 1n) / ss;
}

/** deletePartition frees an entry; its sectors become free space. */
export function deletePartition(t: GptTable, number: number): GptTable {
  findPartition(t, number);
  return { ...t, partitions: t.partitions.filter((p) => p.number !== number) };
}

export function findPartition(t: GptTable, number: number): Partition {
  const p = t.partitions.find((x) => x.number === number);
  if (!p) throw new GptError('partition-not-found', `partition ${number} is not in the table`);
  return p;
}

/** partitionGrowth is how many bytes growPartition without a size would add to partition `number`. */
export function partitionGrowth(t: GptTable, number: number): bigint {
  const p = findPartition(t, number);
  const end = alignedEnd(t, roomEnd(t, p));
  return end > p.lastLba ? (end - p.lastLba) * BigInt(t.sectorSize) : 0n;
}

/** roomEnd is the last sector the partition could reach: before the next partition, or the last usable. */
function roomEnd(t: GptTable, p: Partition): bigint {
  const next = earliestLba(t.partitions.filter((x) => x.firstLba > p.lastLba).map((x) => x.firstLba));
  return next === undefined ? t.lastUsableLba : next - 1n;
}

// growing into all the room ends just before an alignment boundary, as upstream sizes growth; less than
// one unit of room is no room, and a partition never shrinks
function alignedEnd(t: GptTable, room: bigint): bigint {
  return alignDown(room + 1n, t.alignment) - 1n;
}

/** growPartition extends a partition by `bytes` (rounded up to sectors), or into all the room after it. */
export function growPartition(t: GptTable, number: number, bytes?: bigint): GptTable {
  const p = findPartition(t, number);
  const room = roomEnd(t, p);
  let lastLba: bigint;
  if (bytes === undefined) {
    const end = alignedEnd(t, room);
    lastLba = laterLba(end, p.lastLba);
  } else {
    const sectors = sectorsFor(bytes, t.sectorSize, `partition ${number}`);
    if (p.lastLba + sectors > room)
      throw new GptError(
        'no-space',
        `partition ${number} (${JSON.stringify(p.name)}): growing by ${sizeText(bytes)} needs ${sectors} sectors, ${room - p.lastLba} are free after it`,
      );
    lastLba = p.lastLba + sectors;
  }
  return { ...t, partitions: t.partitions.map((x) => (x.number === number ? { ...x, lastLba } : x)) };
}

/**
 * resizeDisk moves the backup array and header to the end of a disk of `diskSectors` (as `sgdisk -e`
 * does after a disk grew) and moves the last usable LBA with them; partitions stay where they are.
 */
export function resizeDisk(t: GptTable, diskSectors: bigint): GptTable {
  const lastLba = diskSectors - 1n;
  const lastUsableLba = lastLba - arraySectors(t) - 1n;
  if (lastUsableLba < t.firstUsableLba)
    throw new GptError(
      'disk-too-small',
      `a disk of ${diskSectors} sectors has no room after both GPT copies`,
    );
  for (const p of t.partitions)
    if (p.lastLba > lastUsableLba)
      throw new GptError(
        'out-of-range',
        `partition ${p.number} (${JSON.stringify(p.name)}) ends at LBA ${p.lastLba}, past the last usable LBA ${lastUsableLba} of a disk of ${diskSectors} sectors`,
      );
  return { ...t, lastLba, lastUsableLba };
}

/** growLastPartition relocates the backup to the disk's end, then grows the partition that ends last. */
export function growLastPartition(t: GptTable, diskSectors: bigint): GptTable {
  const resized = resizeDisk(t, diskSectors);
  const last = resized.partitions.reduce<Partition | undefined>(
    (a, p) => (!a || p.lastLba > a.lastLba ? p : a),
    undefined,
  );
  if (!last) throw new GptError('partition-not-found', 'the table has no partition to grow');
  return growPartition(resized, last.number);
}

/** partitionByName finds a partition by its label (the first one, in entry order). */
export const partitionByName = (t: GptTable, name: string): Partition | undefined =>
  t.partitions.find((p) => p.name === name);

/** partitionBytes is a partition's offset and length in bytes, as the kernel's BLKPG and sysfs use them. */
export const partitionBytes = (t: GptTable, p: Partition): { offset: bigint; length: bigint } => ({
  offset: p.firstLba * BigInt(t.sectorSize),
  length: partitionSectors(p) * BigInt(t.sectorSize),
});
