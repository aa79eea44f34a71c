// ext2/ext3/ext4: one little-endian superblock at 1 KiB, told apart by its feature flags exactly as
// blkid does (ext4 = any feature ext3 lacks, ext3 = a journal, ext2 = neither), and, when the
// filesystem has metadata_csum, checked by the superblock's CRC-32C.
import { crc32cRaw } from './crc32c.js';
import { magic, type ProbeResult, type Prober, type VolumeType } from './prober.js';
import { label } from './text.js';
import { formatUuid } from './uuid.js';

const SB_OFFSET = 1024;
const SB_SIZE = 1024;

// byte offsets in struct ext2_super_block
const SB = {
  inodesCount: 0x00,
  blocksCount: 0x04,
  firstDataBlock: 0x14,
  logBlockSize: 0x18,
  blocksPerGroup: 0x20,
  inodesPerGroup: 0x28,
  revLevel: 0x4c,
  featureCompat: 0x5c,
  featureIncompat: 0x60,
  featureRoCompat: 0x64,
  uuid: 0x68,
  volumeName: 0x78,
  blocksCountHi: 0x150,
  flags: 0x160,
  checksum: 0x3fc,
} as const;

const FLAGS_TEST_FILESYS = 0x0004;
const COMPAT_HAS_JOURNAL = 0x0004;
const RO_COMPAT_METADATA_CSUM = 0x0400;
const INCOMPAT_JOURNAL_DEV = 0x0008;
const INCOMPAT_64BIT = 0x0080;

// what each generation understands (sparse_super, large_file, btree_dir; filetype, recover, meta_bg):
// a feature outside these sets needs a newer driver
const EXT2_RO_COMPAT_SUPP = 0x0001 | 0x0002 | 0x0004;
const EXT2_INCOMPAT_SUPP = 0x0002 | 0x0010;
const EXT3_RO_COMPAT_SUPP = EXT2_RO_COMPAT_SUPP;
const EXT3_INCOMPAT_SUPP = 0x0002 | 0x0004 | 0x0010;

/** e2fsprogs' largest block is 64 KiB (log 6 over 1 KiB); revisions are 0 (original) and 1 (dynamic). */
const MAX_LOG_BLOCK_SIZE = 6;
const MAX_REV_LEVEL = 1;

interface Features {
  compat: number;
  incompat: number;
  roCompat: number;
  flags: number;
}

/** extType is blkid's choice among its ext probers, which accept disjoint feature sets. */
export function extType(f: Features): VolumeType | undefined {
  if (f.incompat & INCOMPAT_JOURNAL_DEV) return 'jbd';
  if (f.flags & FLAGS_TEST_FILESYS) return 'ext4dev';
  if (f.roCompat & ~EXT3_RO_COMPAT_SUPP || f.incompat & ~EXT3_INCOMPAT_SUPP) return 'ext4';
  if (f.compat & COMPAT_HAS_JOURNAL) return 'ext3';
  if (f.roCompat & ~EXT2_RO_COMPAT_SUPP || f.incompat & ~EXT2_INCOMPAT_SUPP) return undefined;
  return 'ext2';
}

export const ext: Prober = {
  name: 'ext',
  magics: [magic(SB_OFFSET + 0x38, [0x53, 0xef])],
  probe(vol): ProbeResult | undefined {
    const sb = vol.read(SB_OFFSET, SB_SIZE);
    if (!sb) return undefined;
    const f: Features = {
      compat: sb.readUInt32LE(SB.featureCompat),
      incompat: sb.readUInt32LE(SB.featureIncompat),
      roCompat: sb.readUInt32LE(SB.featureRoCompat),
      flags: sb.readUInt32LE(SB.flags),
    };
    if (f.roCompat & RO_COMPAT_METADATA_CSUM) {
      if (crc32cRaw(sb.subarray(0, SB.checksum)) !== sb.readUInt32LE(SB.checksum)) return undefined;
    }
    const logBlock = sb.readUInt32LE(SB.logBlockSize);
    if (
      logBlock > MAX_LOG_BLOCK_SIZE ||
      sb.readUInt32LE(SB.revLevel) > MAX_REV_LEVEL ||
      sb.readUInt32LE(SB.inodesCount) === 0 ||
      sb.readUInt32LE(SB.blocksPerGroup) === 0 ||
      sb.readUInt32LE(SB.inodesPerGroup) === 0 ||
      // the superblock is in block 0, or in block 1 when blocks are 1 KiB (bigalloc keeps 0 there too)
      sb.readUInt32LE(SB.firstDataBlock) > (logBlock === 0 ? 1 : 0)
    ) {
      return undefined;
    }
    const type = extType(f);
    if (!type) return undefined;
    const blockSize = 1024 * 2 ** logBlock;
    const hi = f.incompat & INCOMPAT_64BIT ? sb.readUInt32LE(SB.blocksCountHi) : 0;
    const blocks = hi * 2 ** 32 + sb.readUInt32LE(SB.blocksCount);
    if (blocks === 0 || blocks * blockSize > Number.MAX_SAFE_INTEGER) return undefined;
    return {
      type,
      uuid: formatUuid(sb.subarray(SB.uuid, SB.uuid + 16)),
      label: label(sb.subarray(SB.volumeName, SB.volumeName + 16)),
      blockSize,
      filesystemBlockSize: blockSize,
      probedSize: blocks * blockSize,
    };
  },
};
