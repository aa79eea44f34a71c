// The GPT header: 92 bytes at the start of its sector (LBA 1 for the primary, the disk's last LBA for the
// backup), the rest of the sector zero. Its CRC32 covers the header's own bytes with the CRC field zeroed.
import { crc32 } from './crc32.js';
import { GptError } from './errors.js';
import { type Guid, guidFromBytes, guidToBytes } from './guid.js';

export const GPT_SIGNATURE = Buffer.from('EFI PART', 'latin1');
/** revision 1.0 */
export const GPT_REVISION = 0x00010000;
export const GPT_HEADER_SIZE = 92;
/** the only entry size the kernel accepts (the spec allows 128 × 2^n; nobody writes those) */
export const GPT_ENTRY_SIZE = 128;
/** the usual array: 128 entries, 16 KiB */
export const GPT_ENTRY_COUNT = 128;
// a CRC-valid header asking for more than this is not a table anyone made; refuse before allocating
const MAX_ARRAY_BYTES = 8 << 20;

const OFF = {
  signature: 0,
  revision: 8,
  headerSize: 12,
  headerCrc: 16,
  reserved: 20,
  myLba: 24,
  alternateLba: 32,
  firstUsableLba: 40,
  lastUsableLba: 48,
  diskGuid: 56,
  entriesLba: 72,
  entryCount: 80,
  entrySize: 84,
  entriesCrc: 88,
} as const;

export interface GptHeader {
  readonly revision: number;
  readonly headerSize: number;
  /** where this header is */
  readonly myLba: bigint;
  /** where the other one is */
  readonly alternateLba: bigint;
  readonly firstUsableLba: bigint;
  readonly lastUsableLba: bigint;
  readonly diskGuid: Guid;
  /** where this header's copy of the entry array starts */
  readonly entriesLba: bigint;
  readonly entryCount: number;
  readonly entrySize: number;
  readonly entriesCrc: number;
}

/** encodeHeader fills one sector with the header and its CRC. */
export function encodeHeader(h: GptHeader, sectorSize: number): Buffer {
  if (h.headerSize < GPT_HEADER_SIZE || h.headerSize > sectorSize)
    throw new GptError('invalid-argument', `header size ${h.headerSize} does not fit 92..${sectorSize}`);
  const b = Buffer.alloc(sectorSize);
  GPT_SIGNATURE.copy(b, OFF.signature);
  b.writeUInt32LE(h.revision, OFF.revision);
  b.writeUInt32LE(h.headerSize, OFF.headerSize);
  b.writeBigUInt64LE(h.myLba, OFF.myLba);
  b.writeBigUInt64LE(h.alternateLba, OFF.alternateLba);
  b.writeBigUInt64LE(h.firstUsableLba, OFF.firstUsableLba);
  b.writeBigUInt64LE(h.lastUsableLba, OFF.lastUsableLba);
  guidToBytes(h.diskGuid).copy(b, OFF.diskGuid);
  b.writeBigUInt64LE(h.entriesLba, OFF.entriesLba);
  b.writeUInt32LE(h.entryCount, OFF.entryCount);
  b.writeUInt32LE(h.entrySize, OFF.entrySize);
  b.writeUInt32LE(h.entriesCrc >>> 0, OFF.entriesCrc);
  b.writeUInt32LE(crc32(b.subarray(0, h.headerSize)), OFF.headerCrc);
  return b;
}

/**
 * decodeHeader reads and checks one header sector: signature, size, CRC and entry geometry. Where it sits
 * and whether its ranges fit the disk is the table's business (decode.ts). `where` names it in errors.
 */
export function decodeHeader(sector: Uint8Array, where: string): GptHeader {
  const b = Buffer.from(sector.buffer, sector.byteOffset, sector.length);
  if (b.length < GPT_HEADER_SIZE || !b.subarray(0, 8).equals(GPT_SIGNATURE))
    throw new GptError('bad-header', `${where}: no "EFI PART" signature`);
  const headerSize = b.readUInt32LE(OFF.headerSize);
  if (headerSize < GPT_HEADER_SIZE || headerSize > b.length)
    throw new GptError('bad-header', `${where}: header size ${headerSize} is outside 92..${b.length}`);
  const stored = b.readUInt32LE(OFF.headerCrc);
  const copy = Buffer.from(b.subarray(0, headerSize));
  copy.writeUInt32LE(0, OFF.headerCrc);
  const actual = crc32(copy);
  if (stored !== actual)
    throw new GptError(
      'bad-crc',
      `${where}: header CRC is ${hex32(stored)}, its bytes give ${hex32(actual)}`,
    );
  const h: GptHeader = {
    revision: b.readUInt32LE(OFF.revision),
    headerSize,
    myLba: b.readBigUInt64LE(OFF.myLba),
    alternateLba: b.readBigUInt64LE(OFF.alternateLba),
    firstUsableLba: b.readBigUInt64LE(OFF.firstUsableLba),
    lastUsableLba: b.readBigUInt64LE(OFF.lastUsableLba),
    diskGuid: guidFromBytes(b, OFF.diskGuid),
    entriesLba: b.readBigUInt64LE(OFF.entriesLba),
    entryCount: b.readUInt32LE(OFF.entryCount),
    entrySize: b.readUInt32LE(OFF.entrySize),
    entriesCrc: b.readUInt32LE(OFF.entriesCrc),
  };
  if (h.entrySize !== GPT_ENTRY_SIZE)
    throw new GptError(
      'bad-header',
      `${where}: entry size ${h.entrySize}, only 128 is supported (as by the kernel)`,
    );
  if (h.entryCount === 0 || h.entryCount * h.entrySize > MAX_ARRAY_BYTES)
    throw new GptError('bad-header', `${where}: ${h.entryCount} entries is not a usable array size`);
  return h;
}

/** hex32 shows a CRC as 0x and eight hex digits. */
export const hex32 = (n: number): string => `0x${(n >>> 0).toString(16).padStart(8, '0')}`;
