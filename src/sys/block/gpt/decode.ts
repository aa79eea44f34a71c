// Reading a table from a disk's sectors, pure over a sector source. The primary copy (LBA 1) is trusted
// first; if its header or its array is damaged the backup is used, found where the primary's alternate
// pointer says or, with no usable primary, on the disk's last LBA, as the kernel and sgdisk look for it.
import { crc32 } from './crc32.js';
import { decodeEntryArray } from './entry.js';
import { GptError, isGptError } from './errors.js';
import { decodeHeader, type GptHeader, hex32 } from './header.js';
import { decodeMbr, MBR_SIZE, type MbrInfo } from './mbr.js';
import { alignmentSectors, DEFAULT_ALIGNMENT_BYTES, type GptTable } from './table.js';
import { validateTable } from './validate.js';

/** SectorSource returns `count` logical sectors from `lba` (a file, a device, or a Buffer in tests). */
export type SectorSource = (lba: bigint, count: number) => Promise<Uint8Array> | Uint8Array;

export interface DiskShape {
  readonly sectorSize: number;
  readonly diskSectors: bigint;
}

export interface DecodedGpt {
  readonly table: GptTable;
  /** which copy the table came from: the backup only when the primary was damaged */
  readonly source: 'primary' | 'backup';
  /** what was wrong with the other copy, or why the layout no longer fits the disk; empty when all is well */
  readonly problems: readonly string[];
  readonly mbr: MbrInfo;
}

export interface DecodeOptions {
  /** the alignment new partitions get in the table read; 1 MiB unless given (it is not stored on disk) */
  readonly alignmentBytes?: number;
}

interface Copy {
  readonly header: GptHeader;
  readonly array: Uint8Array;
}

export async function decodeGpt(
  read: SectorSource,
  shape: DiskShape,
  opts: DecodeOptions = {},
): Promise<DecodedGpt> {
  const lastLba = shape.diskSectors - 1n;
  if (lastLba < 2n)
    throw new GptError('disk-too-small', `a disk of ${shape.diskSectors} sectors holds no GPT`);
  const mbr = decodeMbr((await read(0n, 1)).subarray(0, MBR_SIZE));
  const problems: string[] = [];

  const primary = await tryCopy(read, shape, 1n, 'primary', problems);
  const backupLba = primary && primary.header.alternateLba <= lastLba ? primary.header.alternateLba : lastLba;
  const backup = await tryCopy(read, shape, backupLba, 'backup', problems);
  const chosen = primary ?? backup;
  if (!chosen) throw new GptError('no-table', `no valid GPT: ${problems.join('; ')}`);
  const source = primary ? 'primary' : 'backup';
  if (primary && backup) problems.push(...differences(primary.header, backup.header));

  const h = chosen.header;
  const table: GptTable = {
    sectorSize: shape.sectorSize,
    lastLba: source === 'primary' ? h.alternateLba : h.myLba,
    diskGuid: h.diskGuid,
    firstUsableLba: h.firstUsableLba,
    lastUsableLba: h.lastUsableLba,
    // a backup does not say where the primary array was; LBA 2 is where every writer puts it
    primaryEntriesLba: source === 'primary' ? h.entriesLba : 2n,
    entryCount: h.entryCount,
    alignment: alignmentSectors(opts.alignmentBytes ?? DEFAULT_ALIGNMENT_BYTES, shape.sectorSize),
    mbrBootable: mbr.bootable,
    partitions: decodeEntryArray(chosen.array, h.entryCount),
  };
  validateTable(table, `${source} table`);
  if (table.lastLba < lastLba)
    problems.push(
      `the backup header is at LBA ${table.lastLba}, not at the disk's last LBA ${lastLba}: the disk grew (resizeDisk moves it)`,
    );
  if (table.lastLba > lastLba)
    problems.push(
      `the table was laid out for ${table.lastLba + 1n} sectors, the disk has ${shape.diskSectors}`,
    );
  return { table, source, problems, mbr };
}

// a damaged copy is a problem to report, not a failure, as long as the other one is good
async function tryCopy(
  read: SectorSource,
  shape: DiskShape,
  lba: bigint,
  which: 'primary' | 'backup',
  problems: string[],
): Promise<Copy | undefined> {
  const where = `${which} header (LBA ${lba})`;
  try {
    const header = decodeHeader(await read(lba, 1), where);
    checkPlacement(header, lba, shape, where);
    const bytes = header.entryCount * header.entrySize;
    const array = (await read(header.entriesLba, Math.ceil(bytes / shape.sectorSize))).subarray(0, bytes);
    const actual = crc32(array);
    if (actual !== header.entriesCrc)
      throw new GptError(
        'bad-crc',
        `${which} entry array (LBA ${header.entriesLba}): CRC is ${hex32(actual)}, its header says ${hex32(header.entriesCrc)}`,
      );
    return { header, array };
  } catch (e) {
    if (!isGptError(e)) throw e;
    problems.push(e.message);
    return undefined;
  }
}

function checkPlacement(h: GptHeader, lba: bigint, shape: DiskShape, where: string): void {
  const lastLba = shape.diskSectors - 1n;
  const bad = (why: string) => new GptError('bad-header', `${where}: ${why}`);
  if (h.myLba !== lba) throw bad(`says it is at LBA ${h.myLba}`);
  if (h.lastUsableLba > lastLba)
    throw bad(`last usable LBA ${h.lastUsableLba} is past the disk's last LBA ${lastLba}`);
  const arrayEnd = h.entriesLba + BigInt(Math.ceil((h.entryCount * h.entrySize) / shape.sectorSize)) - 1n;
  if (h.entriesLba < 2n || arrayEnd > lastLba)
    throw bad(`entry array at LBA ${h.entriesLba}..${arrayEnd} is outside the disk's 2..${lastLba}`);
}

// sgdisk's verify reports copies that disagree; the table still comes from the primary
function differences(p: GptHeader, b: GptHeader): string[] {
  const out: string[] = [];
  if (b.alternateLba !== p.myLba)
    out.push(`the backup header points to LBA ${b.alternateLba} for the primary, not 1`);
  if (b.diskGuid !== p.diskGuid)
    out.push(`the backup's disk GUID ${b.diskGuid} differs from the primary's ${p.diskGuid}`);
  if (b.firstUsableLba !== p.firstUsableLba || b.lastUsableLba !== p.lastUsableLba)
    out.push('the backup header gives a different usable range');
  if (b.entriesCrc !== p.entriesCrc || b.entryCount !== p.entryCount)
    out.push('the backup entry array differs from the primary');
  return out;
}
