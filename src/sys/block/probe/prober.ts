// The shapes the chain and its probers share: what a probe reports, the bytes a prober reads,
// and a prober itself (the magic strings that select it, then a check of the structures behind them).

/** ReadAt reads `length` bytes at `offset`; fewer bytes back means the device ended. */
export type ReadAt = (offset: number, length: number) => Buffer;

/** VolumeType is the name blkid prints as TYPE. */
export type VolumeType =
  | 'xfs'
  | 'ext4'
  | 'ext4dev'
  | 'ext3'
  | 'ext2'
  | 'jbd'
  | 'vfat'
  | 'swap'
  | 'squashfs'
  | 'talosmeta'
  | 'crypto_LUKS'
  | 'iso9660';

/** ProbeResult is upstream's go-blockdevice ProbeResult, with UUIDs spelled as blkid prints them. */
export interface ProbeResult {
  readonly type: VolumeType;
  /** blkid's UUID: RFC 4122 text, "XXXX-XXXX" for FAT, the volume date for iso9660 */
  readonly uuid?: string;
  readonly label?: string;
  /** LUKS2 only: the owner subsystem from the binary header (blkid's SUBSYSTEM) */
  readonly subsystem?: string;
  /** the device unit the volume is laid out in (sector size for xfs and FAT; blkid's BLOCK_SIZE) */
  readonly blockSize?: number;
  /** the volume's own allocation unit (xfs and ext blocks, FAT clusters, squashfs blocks) */
  readonly filesystemBlockSize?: number;
  /** bytes the volume says it spans, from its own header */
  readonly probedSize?: number;
  /**
   * set when the volume says it was never finished: an xfs whose mkfs was cut off (sb_inprogress), which
   * no kernel mounts and which holds no data yet (blkid still names the type)
   */
  readonly unfinished?: true;
}

/** Magic is a byte string at a fixed offset that selects a prober. */
export interface Magic {
  readonly offset: number;
  readonly value: Buffer;
}

/** Volume is the device as a prober sees it: exact reads, undefined for any byte past the end. */
export interface Volume {
  readonly size: number;
  read(offset: number, length: number): Buffer | undefined;
}

/** Prober checks one family of volumes; probe returns undefined for anything it cannot vouch for. */
export interface Prober {
  readonly name: string;
  readonly magics: readonly Magic[];
  probe(volume: Volume, matched: Magic): ProbeResult | undefined;
}

/** magic builds a Magic from text (latin1, so "\xba" is one byte) or bytes. */
export const magic = (offset: number, value: string | readonly number[]): Magic => ({
  offset,
  value: typeof value === 'string' ? Buffer.from(value, 'latin1') : Buffer.from(value),
});

/** isPowerOf2 for the sizes headers state (sector, block, cluster). */
export const isPowerOf2 = (n: number): boolean => Number.isInteger(n) && n > 0 && (n & (n - 1)) === 0;
