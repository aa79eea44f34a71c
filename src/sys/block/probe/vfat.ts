// vfat (FAT12/16/32): the boot sector's BIOS parameter block, validated by the cluster arithmetic
// blkid uses; LABEL is the root directory's volume-label entry (blkid keeps the boot sector's copy
// apart as LABEL_FATBOOT), UUID the serial number. Only the file-system-type strings select this
// prober, as upstream's do: the one-byte jump and 0x55AA magics also match any MBR.
import { isPowerOf2, magic, type ProbeResult, type Prober, type Volume } from './prober.js';
import { label } from './text.js';
import { formatVolumeId } from './uuid.js';

// byte offsets in the boot sector: the DOS 2.0/3.31 BPB, then the FAT12/16 or the FAT32 extension
const BS = {
  oemId: 0x03,
  sectorSize: 0x0b,
  clusterSize: 0x0d,
  reserved: 0x0e,
  fats: 0x10,
  dirEntries: 0x11,
  sectors: 0x13,
  media: 0x15,
  fatLength: 0x16,
  totalSect: 0x20,
  extBootSign: 0x26,
  serno: 0x27,
  fat32Length: 0x24,
  rootCluster: 0x2c,
  fsinfoSector: 0x30,
  fat32Serno: 0x43,
} as const;

const FAT12_MAX = 0xff4;
const FAT16_MAX = 0xfff4;
const FAT32_MAX = 0x0ffffff6;
const DIR_ENTRY = 32;
const ATTR_VOLUME_ID = 0x08;
const ATTR_DIR = 0x10;
const ATTR_LONG_NAME = 0x0f;
const ENTRY_FREE = 0xe5;
const BITLOCKER_OEM = Buffer.from('-FVE-FS-', 'latin1');

/** Geometry is the BPB's arithmetic once it passes blkid's fat_valid_superblock. */
interface Geometry {
  sectorSize: number;
  clusterSize: number;
  reserved: number;
  fatSize: number;
  sectors: number;
}

function geometry(bs: Buffer): Geometry | undefined {
  const sectorSize = bs.readUInt16LE(BS.sectorSize);
  const clusterSize = bs[BS.clusterSize]!;
  const reserved = bs.readUInt16LE(BS.reserved);
  const fats = bs[BS.fats]!;
  const media = bs[BS.media]!;
  if (fats === 0 || reserved === 0 || !(media >= 0xf8 || media === 0xf0)) return undefined;
  if (!isPowerOf2(clusterSize) || !isPowerOf2(sectorSize) || sectorSize < 512 || sectorSize > 4096) {
    return undefined;
  }
  // BitLocker keeps a FAT-like BPB in front of its own volume
  if (bs.subarray(BS.oemId, BS.oemId + 8).equals(BITLOCKER_OEM)) return undefined;
  const sectors = bs.readUInt16LE(BS.sectors) || bs.readUInt32LE(BS.totalSect);
  const fat16Length = bs.readUInt16LE(BS.fatLength);
  const fat32Length = bs.readUInt32LE(BS.fat32Length);
  const fatSize = (fat16Length || fat32Length) * fats;
  const dirSectors = Math.ceil((bs.readUInt16LE(BS.dirEntries) * DIR_ENTRY) / sectorSize);
  const dataSectors = sectors - (reserved + fatSize + dirSectors);
  if (dataSectors < 0) return undefined;
  const clusters = Math.floor(dataSectors / clusterSize);
  const max =
    fat16Length === 0 && fat32Length !== 0 ? FAT32_MAX : clusters > FAT12_MAX ? FAT16_MAX : FAT12_MAX;
  if (clusters > max) return undefined;
  return { sectorSize, clusterSize, reserved, fatSize, sectors };
}

/** searchLabel scans directory entries for the volume label, as blkid's search_fat_label. */
function searchLabel(vol: Volume, offset: number, entries: number): Buffer | undefined {
  const dir = vol.read(offset, entries * DIR_ENTRY);
  if (!dir) return undefined;
  for (let at = 0; at < dir.length; at += DIR_ENTRY) {
    const name = dir[at]!;
    if (name === 0x00) return undefined; // end of directory
    const attr = dir[at + 11]!;
    const cluster = dir.readUInt16LE(at + 20) | dir.readUInt16LE(at + 26);
    if (name === ENTRY_FREE || cluster !== 0 || (attr & 0x3f) === ATTR_LONG_NAME) continue;
    if ((attr & (ATTR_VOLUME_ID | ATTR_DIR)) === ATTR_VOLUME_ID) {
      const found = Buffer.from(dir.subarray(at, at + 11));
      if (found[0] === 0x05) found[0] = ENTRY_FREE; // 0x05 stands in for a leading 0xE5 character
      return found;
    }
  }
  return undefined;
}

/** fat32RootLabel follows the root directory's cluster chain (at most 99 clusters, as blkid). */
function fat32RootLabel(vol: Volume, bs: Buffer, g: Geometry): Buffer | undefined {
  const clusterBytes = g.clusterSize * g.sectorSize;
  const fatEntries = Math.floor((bs.readUInt32LE(BS.fat32Length) * g.sectorSize) / 4);
  let next = bs.readUInt32LE(BS.rootCluster);
  for (let loop = 1; loop < 100 && next >= 2 && next < fatEntries; loop++) {
    const at = (g.reserved + g.fatSize + (next - 2) * g.clusterSize) * g.sectorSize;
    const found = searchLabel(vol, at, clusterBytes / DIR_ENTRY);
    if (found) return found;
    const entry = vol.read(g.reserved * g.sectorSize + next * 4, 4);
    if (!entry) return undefined;
    next = entry.readUInt32LE(0) & 0x0fffffff;
  }
  return undefined;
}

const ZERO4 = Buffer.alloc(4);
const FSINFO_SIG1 = [Buffer.from('RRaA', 'latin1'), Buffer.from('RRdA', 'latin1'), ZERO4];
const FSINFO_SIG2 = [Buffer.from('rrAa', 'latin1'), ZERO4];

/** fsinfoValid: a FAT32 FSInfo sector carries its signatures, or none at all (some tools leave it zero). */
function fsinfoValid(vol: Volume, bs: Buffer, g: Geometry): boolean {
  const sector = bs.readUInt16LE(BS.fsinfoSector);
  if (sector === 0) return true;
  const info = vol.read(sector * g.sectorSize, 512);
  if (!info) return false;
  const sig1 = info.subarray(0, 4);
  const sig2 = info.subarray(484, 488);
  return FSINFO_SIG1.some((s) => s.equals(sig1)) && FSINFO_SIG2.some((s) => s.equals(sig2));
}

export const vfat: Prober = {
  name: 'vfat',
  magics: [
    magic(0x52, 'MSWIN'),
    magic(0x52, 'FAT32   '),
    magic(0x36, 'MSDOS'),
    magic(0x36, 'FAT16   '),
    magic(0x36, 'FAT12   '),
    magic(0x36, 'FAT     '),
  ],
  probe(vol): ProbeResult | undefined {
    const bs = vol.read(0, 512);
    if (!bs) return undefined;
    const g = geometry(bs);
    if (!g) return undefined;
    let volLabel: Buffer | undefined;
    let serno: Buffer | undefined;
    if (bs.readUInt16LE(BS.fatLength) !== 0) {
      volLabel = searchLabel(vol, (g.reserved + g.fatSize) * g.sectorSize, bs.readUInt16LE(BS.dirEntries));
      const sign = bs[BS.extBootSign];
      if (sign === 0x28 || sign === 0x29) serno = bs.subarray(BS.serno, BS.serno + 4);
    } else if (bs.readUInt32LE(BS.fat32Length) !== 0) {
      volLabel = fat32RootLabel(vol, bs, g);
      serno = bs.subarray(BS.fat32Serno, BS.fat32Serno + 4);
      if (!fsinfoValid(vol, bs, g)) return undefined;
    }
    return {
      type: 'vfat',
      uuid: serno && formatVolumeId(serno),
      label: volLabel && label(volLabel, 'latin1'),
      blockSize: g.sectorSize,
      filesystemBlockSize: g.clusterSize * g.sectorSize,
      probedSize: g.sectors * g.sectorSize,
    };
  },
};
