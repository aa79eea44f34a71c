// The volume manager's disk work: a partition added to a disk's GPT (a new table on a blank disk, never
// a change to a foreign partition), a partition grown into the room after it, a filesystem made or
// checked. Each runs under the exclusive whole-disk flock, so udev and discovery leave the disk alone.
import { existsSync, readSync, statSync } from 'node:fs';
import { setTimeout as delay } from 'node:timers/promises';
import type { FilesystemSpec, PartitionSpec } from '../../../../resources/block/volume-config.js';
import { FilesystemType, FilesystemTypes } from '../../../../resources/block/volume-enums.js';
import {
  type BlockFd,
  closeBlockDevice,
  lockDisk,
  openBlockDevice,
  unlockDisk,
} from '../../../../src/sys/block/devices/index.js';
import {
  addPartition,
  alignedWhole,
  createTable,
  diskGeometry,
  extentSectors,
  findPartition,
  freeExtents,
  type GptTable,
  growPartition,
  isGptError,
  partitionBytes,
  partitionGrowth,
  readGpt,
  resizeDisk,
  writeGpt,
} from '../../../../src/sys/block/gpt/index.js';
import { mkfsXfs } from '../../../../src/sys/block/mkfs/index.js';
import { probeFd, probePath } from '../../../../src/sys/block/probe/index.js';
import { formatRefusal, growTo, partitionPath, partitionSize } from './plan.js';

/** VolumeIOError is a disk refusing the work: `retry` says whether trying again later may help. */
export class VolumeIOError extends Error {
  constructor(
    message: string,
    readonly retry: boolean,
    opts?: ErrorOptions,
  ) {
    super(message, opts);
    this.name = 'VolumeIOError';
  }
}

const LOCK_TIMEOUT_MS = 10_000;

async function withWritableDisk<T>(
  disk: string,
  signal: AbortSignal | undefined,
  fn: (d: BlockFd) => Promise<T>,
): Promise<T> {
  const d = openBlockDevice(disk, { write: true });
  try {
    try {
      await lockDisk(d, 'exclusive', { signal, timeoutMs: LOCK_TIMEOUT_MS });
    } catch (cause) {
      if (signal?.aborted) throw cause;
      throw new VolumeIOError(`locking ${disk}: ${(cause as Error).message}`, true, { cause });
    }
    try {
      return await fn(d);
    } finally {
      unlockDisk(d);
    }
  } finally {
    closeBlockDevice(d);
  }
}

/**
 * onWholeDisk is the table with its backup at the end of the disk as it is now: a disk that grew after
 * its table was written (a virtual disk resized) keeps the old end in its headers, and the room past it
 * is only usable once the backup moves there (as `sgdisk -e`, as upstream does on every write).
 */
export const onWholeDisk = (t: GptTable, diskSectors: bigint): GptTable =>
  t.lastLba < diskSectors - 1n ? resizeDisk(t, diskSectors) : t;

/** largestFree is the largest aligned free extent of a table, in bytes. */
export function largestFree(t: GptTable): number {
  let best = 0n;
  for (const e of freeExtents(t.partitions, t.firstUsableLba, t.lastUsableLba)) {
    const w = alignedWhole(e, t.alignment);
    if (w && extentSectors(w) > best) best = extentSectors(w);
  }
  return Number(best * BigInt(t.sectorSize));
}

// a disk without a GPT is only partitioned when nothing is on it: no filesystem, no MBR
function blank(d: BlockFd, size: number): boolean {
  if (probeFd(d.fd, size, { name: d.path })) return false;
  const mbr = Buffer.alloc(512);
  readSync(d.fd, mbr, 0, 512, 0);
  return !(mbr[510] === 0x55 && mbr[511] === 0xaa);
}

export interface CreatedPartition {
  readonly index: number;
  readonly location: string;
  readonly partitionUUID: string;
  readonly size: number;
}

/**
 * createPartition adds the volume's partition to `disk`: into its GPT, or a new GPT when the disk is
 * blank. A disk holding anything else is refused; existing partitions are never moved or resized.
 * Not enough room is a VolumeIOError naming the volume and the bytes it needs.
 */
export function createPartition(
  disk: string,
  volumeID: string,
  p: PartitionSpec,
  opts: { readonly signal?: AbortSignal } = {},
): Promise<CreatedPartition> {
  return withWritableDisk(disk, opts.signal, async (d) => {
    const geometry = await diskGeometry(d.fd);
    const diskSize = Number(geometry.sizeBytes);
    let table: GptTable;
    try {
      table = onWholeDisk((await readGpt(d.fd)).table, geometry.diskSectors);
    } catch (e) {
      if (!isGptError(e)) throw e;
      if (!blank(d, diskSize))
        throw new VolumeIOError(`${disk} holds something other than a GPT, so it is not partitioned`, false);
      table = createTable({ diskSectors: geometry.diskSectors, sectorSize: geometry.sectorSize });
    }
    const plan = partitionSize(p, largestFree(table), diskSize);
    if (!plan.ok)
      throw new VolumeIOError(
        `volume ${volumeID} needs ${plan.needed} bytes on ${disk}, the largest free space is ${largestFree(table)} bytes`,
        false,
      );
    const { table: next, partition } = addPartition(table, {
      name: p.label,
      type: p.typeUUID,
      size: BigInt(plan.size),
    });
    await writeGpt(d.fd, next, { signal: opts.signal });
    return {
      index: partition.number,
      location: partitionPath(disk, partition.number),
      partitionUUID: partition.guid.toLowerCase(),
      size: Number(partitionBytes(next, partition).length),
    };
  });
}

/** growOnDisk grows partition `index` of `disk` into the room after it (capped by maxSize); its new size. */
export function growOnDisk(
  disk: string,
  index: number,
  p: PartitionSpec,
  opts: { readonly signal?: AbortSignal } = {},
): Promise<number> {
  return withWritableDisk(disk, opts.signal, async (d) => {
    const read = await readGpt(d.fd);
    const { geometry } = read;
    const table = onWholeDisk(read.table, geometry.diskSectors);
    const current = Number(partitionBytes(table, findPartition(table, index)).length);
    const room = Number(partitionGrowth(table, index));
    const target = growTo(p, current, room, Number(geometry.sizeBytes));
    if (target <= current) return current;
    const next = growPartition(table, index, BigInt(target - current));
    await writeGpt(d.fd, next, { signal: opts.signal });
    return Number(partitionBytes(next, findPartition(next, index)).length);
  });
}

/** waitForNode waits for a new partition's device node, which devtmpfs adds shortly after BLKPG. */
async function waitForNode(path: string, signal?: AbortSignal): Promise<void> {
  for (const deadline = Date.now() + 10_000; ; await delay(20, undefined, { signal })) {
    if (existsSync(path) && statSync(path).isBlockDevice()) return;
    if (Date.now() > deadline) throw new VolumeIOError(`${path} did not appear`, true);
  }
}

/**
 * formatVolume makes the filesystem when the device holds none (or only one whose making never finished)
 * and checks it otherwise: another filesystem is an error, never overwritten. Its UUID is returned.
 */
export async function formatVolume(
  location: string,
  fs: FilesystemSpec,
  opts: { readonly signal?: AbortSignal } = {},
): Promise<{ uuid: string }> {
  if (fs.type === FilesystemType.None) return { uuid: '' };
  await waitForNode(location, opts.signal);
  const want = FilesystemTypes.text(fs.type);
  const found = probePath(location);
  // a mkfs cut off by a power loss left a filesystem no kernel mounts and nothing was ever written to:
  // it is made again rather than failing the volume forever
  if (found && !found.unfinished) {
    if (found.type !== want)
      throw new VolumeIOError(
        `filesystem type mismatch on ${location}: found ${found.type}, want ${want}`,
        false,
      );
    return { uuid: found.uuid ?? '' };
  }
  const refusal = formatRefusal(fs);
  if (refusal) throw new VolumeIOError(refusal, false);
  await mkfsXfs(location, { label: fs.label, signal: opts.signal });
  return { uuid: probePath(location)?.uuid ?? '' };
}
