// Probing a block device the way upstream's discovery does (go-blockdevice's blkid.Probe): its size,
// sector and I/O sizes, the signature on it in the chain's order with the GPT prober in its place
// (after swap, before squashfs), and for a GPT each partition's entry with what its own range holds.
import { getIOSize, getLogicalSectorSize, isCdrom, isCdromNoMedia } from '../devices/ioctl.js';
import { type BlockFd, deviceLabel } from '../devices/open.js';
import { decodeGpt, isGptError } from '../gpt/index.js';
import { CHAIN, probe } from './chain.js';
import {
  alignedReadAt,
  blockDeviceSize,
  POSIX_FADV_DONTNEED,
  POSIX_FADV_RANDOM,
  posixFadvise,
} from './device.js';
import type { ProbeResult, ReadAt, VolumeType } from './prober.js';

/** Signature is what a probe found: a volume (ProbeResult's fields) or a partition table (`gpt`). */
export interface Signature {
  readonly name: VolumeType | 'gpt';
  readonly uuid?: string;
  readonly label?: string;
  readonly blockSize?: number;
  readonly filesystemBlockSize?: number;
  readonly probedSize?: number;
}

/** PartitionProbe is one GPT entry (GUIDs lowercase, as upstream prints them) and what its range holds. */
export interface PartitionProbe {
  /** the entry's slot, 1-based: the N of loop0pN */
  readonly index: number;
  readonly uuid: string;
  readonly type: string;
  readonly label: string;
  /** bytes from the start of the disk */
  readonly offset: number;
  readonly size: number;
  readonly signature: Signature | undefined;
}

/** DeviceProbe is upstream's blkid.Info: the device's sizes, its signature and its partitions. */
export interface DeviceProbe {
  readonly size: number;
  readonly sectorSize: number;
  readonly ioSize: number;
  readonly signature: Signature | undefined;
  readonly parts: readonly PartitionProbe[];
}

const BEFORE_GPT = CHAIN.slice(0, 4); // xfs, ext, vfat, swap
const AFTER_GPT = CHAIN.slice(4); // squashfs, talosmeta, luks, iso9660

const volume = (r: ProbeResult): Signature => ({
  name: r.type,
  ...(r.uuid !== undefined ? { uuid: r.uuid } : {}),
  ...(r.label !== undefined ? { label: r.label } : {}),
  ...(r.blockSize !== undefined ? { blockSize: r.blockSize } : {}),
  ...(r.filesystemBlockSize !== undefined ? { filesystemBlockSize: r.filesystemBlockSize } : {}),
  ...(r.probedSize !== undefined ? { probedSize: r.probedSize } : {}),
});

/** within narrows a ReadAt to `size` bytes from `offset`. */
const within =
  (readAt: ReadAt, offset: number, size: number): ReadAt =>
  (off, length) =>
    off >= size ? Buffer.alloc(0) : readAt(offset + off, Math.min(length, size - off));

interface Gpt {
  readonly signature: Signature;
  readonly parts: readonly Omit<PartitionProbe, 'signature'>[];
}

/** probeGpt reads a GPT through `readAt`; undefined when there is no valid one. */
export async function probeGpt(readAt: ReadAt, size: number, sectorSize: number): Promise<Gpt | undefined> {
  const diskSectors = BigInt(Math.floor(size / sectorSize));
  let table: Awaited<ReturnType<typeof decodeGpt>>['table'];
  try {
    ({ table } = await decodeGpt(
      (lba, count) => {
        const b = readAt(Number(lba) * sectorSize, count * sectorSize);
        return b.length === count * sectorSize
          ? b
          : Buffer.concat([b, Buffer.alloc(count * sectorSize - b.length)]);
      },
      { sectorSize, diskSectors },
    ));
  } catch (e) {
    if (isGptError(e)) return undefined; // no table, or none that checks out
    throw e;
  }
  const ss = BigInt(sectorSize);
  return {
    signature: {
      name: 'gpt',
      uuid: table.diskGuid.toLowerCase(),
      blockSize: sectorSize,
      probedSize: Number((table.lastUsableLba - table.firstUsableLba + 1n) * ss),
    },
    parts: table.partitions.map((p) => ({
      index: p.number,
      uuid: p.guid.toLowerCase(),
      type: p.type.toLowerCase(),
      label: p.name,
      offset: Number(p.firstLba * ss),
      size: Number((p.lastLba - p.firstLba + 1n) * ss),
    })),
  };
}

/** probeSignatures runs the chain over `readAt` with the GPT prober in upstream's place. */
export async function probeSignatures(
  readAt: ReadAt,
  size: number,
  sectorSize: number,
): Promise<{ signature: Signature | undefined; parts: readonly PartitionProbe[] }> {
  const early = probe(readAt, size, BEFORE_GPT);
  if (early) return { signature: volume(early), parts: [] };
  const gpt = await probeGpt(readAt, size, sectorSize);
  if (gpt) {
    const parts = gpt.parts.map((p) => {
      const found = probe(within(readAt, p.offset, p.size), p.size);
      return { ...p, signature: found ? volume(found) : undefined };
    });
    return { signature: gpt.signature, parts };
  }
  const late = probe(readAt, size, AFTER_GPT);
  return { signature: late ? volume(late) : undefined, parts: [] };
}

/**
 * probeDevice probes an open block device. The caller holds the whole disk's shared lock: the page
 * cache is dropped first, since a writer that used O_DIRECT leaves it stale, as upstream does once locked.
 */
export async function probeDevice(d: BlockFd): Promise<DeviceProbe> {
  const size = blockDeviceSize(d.fd);
  const sectorSize = getLogicalSectorSize(d);
  const ioSize = getIOSize(d);
  // an optical drive without a disc has nothing to read (every read fails): left unprobed, as upstream
  if (isCdrom(d) && isCdromNoMedia(d)) return { size, sectorSize, ioSize, signature: undefined, parts: [] };
  posixFadvise(d.fd, 0, 0, POSIX_FADV_RANDOM);
  posixFadvise(d.fd, 0, 0, POSIX_FADV_DONTNEED);
  const found = await probeSignatures(alignedReadAt(d.fd, size, deviceLabel(d)), size, sectorSize);
  return { size, sectorSize, ioSize, ...found };
}
