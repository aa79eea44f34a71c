// squashfs 4: the little-endian superblock at byte 0 ("hsqs"); no UUID or label exists in the format.
// Versions before 4 are blkid's separate squashfs3 type and are not reported.
import { isPowerOf2, magic, type ProbeResult, type Prober } from './prober.js';

// byte offsets in struct squashfs_super_block
const SB = { blockSize: 12, compression: 20, blockLog: 22, major: 28, bytesUsed: 40, size: 96 } as const;

/** squashfs 4 blocks are 4 KiB to 1 MiB; compressors are gzip, lzma, lzo, xz, lz4 and zstd (1–6). */
const MIN_BLOCK = 4096;
const MAX_BLOCK = 1024 * 1024;
const MAX_COMPRESSION = 6;

export const squashfs: Prober = {
  name: 'squashfs',
  magics: [magic(0, 'hsqs')],
  probe(vol): ProbeResult | undefined {
    const sb = vol.read(0, SB.size);
    if (!sb) return undefined;
    const blockSize = sb.readUInt32LE(SB.blockSize);
    const compression = sb.readUInt16LE(SB.compression);
    const bytesUsed = sb.readBigUInt64LE(SB.bytesUsed);
    if (
      sb.readUInt16LE(SB.major) < 4 ||
      !isPowerOf2(blockSize) ||
      blockSize < MIN_BLOCK ||
      blockSize > MAX_BLOCK ||
      2 ** sb.readUInt16LE(SB.blockLog) !== blockSize ||
      compression < 1 ||
      compression > MAX_COMPRESSION ||
      bytesUsed > BigInt(Number.MAX_SAFE_INTEGER)
    ) {
      return undefined;
    }
    return { type: 'squashfs', blockSize, filesystemBlockSize: blockSize, probedSize: Number(bytesUsed) };
  },
};
