// xfs: the big-endian superblock at byte 0, checked field by field as blkid does, and for v5
// filesystems by its CRC-32C, so a stale or torn superblock is not taken for a filesystem.
import { crc32c } from './crc32c.js';
import { magic, type ProbeResult, type Prober } from './prober.js';
import { label } from './text.js';
import { formatUuid } from './uuid.js';

// byte offsets in struct xfs_dsb
const SB = {
  blocksize: 4,
  dblocks: 8,
  uuid: 32,
  logstart: 48,
  rextsize: 80,
  agblocks: 84,
  agcount: 88,
  logblocks: 96,
  versionnum: 100,
  sectsize: 102,
  inodesize: 104,
  fname: 108,
  blocklog: 120,
  sectlog: 121,
  inodelog: 122,
  inopblog: 123,
  /** set by mkfs while it writes the filesystem, cleared as its last step */
  inprogress: 126,
  imaxPct: 127,
  crc: 224,
  /** the fields through sb_crc; a v4 superblock is checked on these alone */
  size: 228,
} as const;

const VERSION_NUMBITS = 0x000f;
const VERSION_5 = 5;
const MIN_AG_BLOCKS = 64;

/** XfsSuperblock is what the checks below need, decoded once. */
interface XfsSuperblock {
  blocksize: number;
  dblocks: bigint;
  logstart: bigint;
  rextsize: number;
  agblocks: number;
  agcount: number;
  logblocks: number;
  version: number;
  sectsize: number;
  inodesize: number;
  blocklog: number;
  sectlog: number;
  inodelog: number;
  inopblog: number;
  imaxPct: number;
}

const decode = (b: Buffer): XfsSuperblock => ({
  blocksize: b.readUInt32BE(SB.blocksize),
  dblocks: b.readBigUInt64BE(SB.dblocks),
  logstart: b.readBigUInt64BE(SB.logstart),
  rextsize: b.readUInt32BE(SB.rextsize),
  agblocks: b.readUInt32BE(SB.agblocks),
  agcount: b.readUInt32BE(SB.agcount),
  logblocks: b.readUInt32BE(SB.logblocks),
  version: b.readUInt16BE(SB.versionnum) & VERSION_NUMBITS,
  sectsize: b.readUInt16BE(SB.sectsize),
  inodesize: b.readUInt16BE(SB.inodesize),
  blocklog: b[SB.blocklog]!,
  sectlog: b[SB.sectlog]!,
  inodelog: b[SB.inodelog]!,
  inopblog: b[SB.inopblog]!,
  imaxPct: b[SB.imaxPct]!,
});

const log2Of = (n: number, log: number, min: number, max: number) =>
  log >= min && log <= max && n === 2 ** log;

/** sane is blkid's xfs_verify_sb: every size a power of two in range and the AG geometry consistent. */
function sane(s: XfsSuperblock): boolean {
  const rtext = s.rextsize * s.blocksize;
  const maxDblocks = BigInt(s.agcount) * BigInt(s.agblocks);
  const minDblocks = BigInt(s.agcount - 1) * BigInt(s.agblocks) + BigInt(MIN_AG_BLOCKS);
  return (
    s.version >= 1 &&
    s.version <= VERSION_5 &&
    s.agcount > 0 &&
    log2Of(s.sectsize, s.sectlog, 9, 15) &&
    log2Of(s.blocksize, s.blocklog, 9, 16) &&
    log2Of(s.inodesize, s.inodelog, 8, 11) &&
    s.blocklog - s.inodelog === s.inopblog &&
    rtext >= 4096 &&
    rtext <= 1024 * 1024 * 1024 &&
    s.imaxPct <= 100 &&
    s.dblocks > 0n &&
    s.dblocks <= maxDblocks &&
    s.dblocks >= minDblocks
  );
}

/** crcMatches checks sb_crc (stored little-endian) over one sector with the field itself taken as zero. */
function crcMatches(sector: Buffer): boolean {
  const copy = Buffer.from(sector);
  const stored = copy.readUInt32LE(SB.crc);
  copy.writeUInt32LE(0, SB.crc);
  return crc32c(copy) === stored;
}

export const xfs: Prober = {
  name: 'xfs',
  magics: [magic(0, 'XFSB')],
  probe(vol): ProbeResult | undefined {
    const head = vol.read(0, SB.size);
    if (!head) return undefined;
    const s = decode(head);
    if (!sane(s)) return undefined;
    if (s.version === VERSION_5) {
      const sector = vol.read(0, s.sectsize);
      if (!sector || !crcMatches(sector)) return undefined;
    }
    // upstream reports the data section less an internal log
    const dataBlocks = s.dblocks - (s.logstart !== 0n ? BigInt(s.logblocks) : 0n);
    const probedSize = dataBlocks * BigInt(s.blocksize);
    if (probedSize > BigInt(Number.MAX_SAFE_INTEGER)) return undefined;
    return {
      type: 'xfs',
      uuid: formatUuid(head.subarray(SB.uuid, SB.uuid + 16)),
      label: label(head.subarray(SB.fname, SB.fname + 12)),
      blockSize: s.sectsize,
      filesystemBlockSize: s.blocksize,
      probedSize: Number(probedSize),
      ...(head[SB.inprogress] !== 0 ? { unfinished: true as const } : {}),
    };
  },
};
