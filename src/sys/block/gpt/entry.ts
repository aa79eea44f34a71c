// Partition entries: 128 bytes each (type GUID, unique GUID, first and last LBA inclusive, 64 attribute
// bits, a name of 36 UTF-16LE code units); an all-zero type GUID marks an unused entry.
import { GptError } from './errors.js';
import { type Guid, guidFromBytes, guidToBytes, NIL_GUID } from './guid.js';
import { GPT_ENTRY_SIZE } from './header.js';

/** attribute bits the UEFI spec defines; bits 48..63 belong to the partition type */
export const PARTITION_ATTR = {
  /** the platform needs the partition to work (firmware, recovery) */
  requiredPartition: 1n << 0n,
  /** EFI firmware should not make a block I/O device for it */
  noBlockIoProtocol: 1n << 1n,
  /** legacy BIOS bootable: what a BIOS-booting GRUB looks for (upstream sets it on BIOS) */
  legacyBiosBootable: 1n << 2n,
} as const;

/** the name field holds 36 UTF-16 code units (72 bytes) */
export const NAME_UNITS = 36;
const NAME_OFFSET = 56;

export interface Partition {
  /** entry number, 1-based: the N in /dev/sdaN */
  readonly number: number;
  readonly type: Guid;
  /** the unique partition GUID (PARTUUID) */
  readonly guid: Guid;
  readonly firstLba: bigint;
  /** inclusive */
  readonly lastLba: bigint;
  readonly attributes: bigint;
  readonly name: string;
}

/** partitionSectors is the length of a partition in logical sectors. */
export const partitionSectors = (p: Pick<Partition, 'firstLba' | 'lastLba'>): bigint =>
  p.lastLba - p.firstLba + 1n;

/** checkName refuses a name the 72-byte field cannot hold; `what` names the partition. */
export function checkName(name: string, what: string): void {
  // a JS string is UTF-16 already: its length is the count of code units the field stores
  if (name.length > NAME_UNITS)
    throw new GptError(
      'name-too-long',
      `${what}: name ${JSON.stringify(name)} is ${name.length} UTF-16 code units, the most is ${NAME_UNITS}`,
    );
  if (name.includes('\0'))
    throw new GptError('invalid-argument', `${what}: name ${JSON.stringify(name)} holds a NUL`);
}

export function encodeEntry(p: Partition): Buffer {
  checkName(p.name, `partition ${p.number}`);
  const b = Buffer.alloc(GPT_ENTRY_SIZE);
  guidToBytes(p.type).copy(b, 0);
  guidToBytes(p.guid).copy(b, 16);
  b.writeBigUInt64LE(p.firstLba, 32);
  b.writeBigUInt64LE(p.lastLba, 40);
  b.writeBigUInt64LE(p.attributes, 48);
  b.write(p.name, NAME_OFFSET, 'utf16le');
  return b;
}

/** decodeEntry reads one entry; an unused one (nil type) is undefined. */
export function decodeEntry(b: Uint8Array, number: number): Partition | undefined {
  const e = Buffer.from(b.buffer, b.byteOffset, GPT_ENTRY_SIZE);
  const type = guidFromBytes(e, 0);
  if (type === NIL_GUID) return undefined;
  const name = e.subarray(NAME_OFFSET, GPT_ENTRY_SIZE);
  let units = 0;
  while (units < NAME_UNITS && name.readUInt16LE(units * 2) !== 0) units++;
  return {
    number,
    type,
    guid: guidFromBytes(e, 16),
    firstLba: e.readBigUInt64LE(32),
    lastLba: e.readBigUInt64LE(40),
    attributes: e.readBigUInt64LE(48),
    name: name.subarray(0, units * 2).toString('utf16le'),
  };
}

/** encodeEntryArray lays out `count` entries, each partition at its number's slot, the rest zero. */
export function encodeEntryArray(partitions: readonly Partition[], count: number): Buffer {
  const b = Buffer.alloc(count * GPT_ENTRY_SIZE);
  for (const p of partitions) {
    if (!Number.isInteger(p.number) || p.number < 1 || p.number > count)
      throw new GptError('invalid-argument', `partition ${p.number}: the array has entries 1..${count}`);
    encodeEntry(p).copy(b, (p.number - 1) * GPT_ENTRY_SIZE);
  }
  return b;
}

/** decodeEntryArray returns the used entries in number order. */
export function decodeEntryArray(b: Uint8Array, count: number): Partition[] {
  const out: Partition[] = [];
  for (let i = 0; i < count; i++) {
    const p = decodeEntry(b.subarray(i * GPT_ENTRY_SIZE, (i + 1) * GPT_ENTRY_SIZE), i + 1);
    if (p) out.push(p);
  }
  return out;
}
