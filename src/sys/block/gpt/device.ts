// A table on an open descriptor: a block device (sector size and size from the kernel) or a regular file
// holding a disk image (a caller-given sector size, 512 unless said). Reads and writes go through libuv's
// pool, so a slow disk's flush never stalls the event loop; the few ioctls are immediate.
import { fstat, fsync, read, write } from 'node:fs';
import { promisify } from 'node:util';
import { type DecodedGpt, type DecodeOptions, decodeGpt } from './decode.js';
import { encodeGpt, type SectorWrite, wipeRanges } from './encode.js';
import { GptError, isGptError } from './errors.js';
import { blockSectorSize, blockSizeBytes } from './ioctl.js';
import { type KernelSync, kernelPartitionsOf, syncKernel } from './kernel-sync.js';
import { checkSectorSize, type GptTable } from './table.js';

const fstatAsync = promisify(fstat);
const fsyncAsync = promisify(fsync);
const readAsync = promisify(read);
const writeAsync = promisify(write);

export interface DiskGeometry {
  readonly sectorSize: number;
  readonly diskSectors: bigint;
  readonly sizeBytes: bigint;
  /** a block device, whose kernel partitions follow a write; an image file has none */
  readonly blockDevice: boolean;
}

export interface GeometryOptions {
  /** the logical sector size of an image file (512 unless given); a block device's own must match if given */
  readonly sectorSize?: number;
}

/** diskGeometry finds the sector size and the size in sectors (an image's partial last sector is left out). */
export async function diskGeometry(fd: number, opts: GeometryOptions = {}): Promise<DiskGeometry> {
  const st = await fstatAsync(fd, { bigint: true });
  if (st.isBlockDevice()) {
    const sectorSize = blockSectorSize(fd);
    if (opts.sectorSize !== undefined && opts.sectorSize !== sectorSize)
      throw new GptError(
        'invalid-argument',
        `the device's logical sector size is ${sectorSize} bytes, not the ${opts.sectorSize} asked for`,
      );
    const sizeBytes = blockSizeBytes(fd);
    return { sectorSize, sizeBytes, diskSectors: sizeBytes / BigInt(sectorSize), blockDevice: true };
  }
  if (!st.isFile())
    throw new GptError('invalid-argument', `descriptor ${fd} is neither a block device nor a regular file`);
  const sectorSize = opts.sectorSize ?? 512;
  checkSectorSize(sectorSize);
  return { sectorSize, sizeBytes: st.size, diskSectors: st.size / BigInt(sectorSize), blockDevice: false };
}

export interface ReadGpt extends DecodedGpt {
  readonly geometry: DiskGeometry;
}

/** readGpt reads and checks the table, falling back to the backup copy if the primary is damaged. */
export async function readGpt(
  fd: number,
  opts: GeometryOptions & DecodeOptions & { readonly signal?: AbortSignal } = {},
): Promise<ReadGpt> {
  opts.signal?.throwIfAborted();
  const geometry = await diskGeometry(fd, opts);
  const decoded = await decodeGpt((lba, count) => readSectors(fd, geometry, lba, count), geometry, opts);
  return { ...decoded, geometry };
}

export interface WriteOptions extends GeometryOptions {
  /** tell the kernel about the new partitions (block devices only); true unless false */
  readonly syncKernel?: boolean;
  /** checked before the first write only: once writing starts it runs to the end */
  readonly signal?: AbortSignal;
}

export interface WriteGpt {
  readonly geometry: DiskGeometry;
  /** how the kernel took the table; undefined for an image file or when not asked */
  readonly kernel?: KernelSync;
}

/**
 * writeGpt writes both copies of the table and the protective MBR, then updates the kernel's partitions.
 *
 * Each copy is flushed before the other is touched, so a crash tears at most one of them and at every
 * instant one valid table is on the disk. The backup (array, then header) goes first, so the primary, the
 * copy the kernel, firmware and sgdisk trust first, changes last: until it is rewritten every reader sees
 * the old table whole; while it is being rewritten, a torn primary falls back to the new backup already
 * in place. The caller holds an exclusive flock on the disk, as upstream's installer does, so udev does
 * not probe the disk halfway.
 */
export async function writeGpt(fd: number, table: GptTable, opts: WriteOptions = {}): Promise<WriteGpt> {
  const geometry = await diskGeometry(fd, opts);
  if (table.sectorSize !== geometry.sectorSize)
    throw new GptError(
      'invalid-argument',
      `the table has ${table.sectorSize}-byte sectors, the disk ${geometry.sectorSize}-byte ones`,
    );
  if (table.lastLba > geometry.diskSectors - 1n)
    throw new GptError(
      'invalid-argument',
      `the table is laid out for ${table.lastLba + 1n} sectors, the disk has ${geometry.diskSectors} (resizeDisk first)`,
    );
  const sector0 = await readSectors(fd, geometry, 0n, 1);
  const sectors = encodeGpt(table, { sector0 });
  opts.signal?.throwIfAborted();
  await writeAll(fd, geometry, sectors.backup);
  await fsyncAsync(fd);
  await writeAll(fd, geometry, sectors.primary);
  await fsyncAsync(fd);
  if (!geometry.blockDevice || opts.syncKernel === false) return { geometry };
  return { geometry, kernel: syncKernel(fd, kernelPartitionsOf(table)) };
}

/**
 * wipeGpt zeroes the protective MBR, both headers and both arrays (where a readable table had them, and
 * where a fresh one would put them), so neither the kernel nor blkid finds a table; the kernel's
 * partitions are dropped after. Partition contents are not touched.
 */
export async function wipeGpt(fd: number, opts: WriteOptions = {}): Promise<WriteGpt> {
  const geometry = await diskGeometry(fd, opts);
  let table: GptTable | undefined;
  try {
    table = (await decodeGpt((lba, count) => readSectors(fd, geometry, lba, count), geometry)).table;
  } catch (e) {
    if (!isGptError(e)) throw e; // no readable table: the fixed places are enough
  }
  opts.signal?.throwIfAborted();
  const ss = BigInt(geometry.sectorSize);
  for (const r of wipeRanges(geometry.sectorSize, geometry.diskSectors, table))
    await writeAll(fd, geometry, [{ lba: r.lba, data: Buffer.alloc(Number(r.count * ss)) }]);
  await fsyncAsync(fd);
  if (!geometry.blockDevice || opts.syncKernel === false) return { geometry };
  return { geometry, kernel: syncKernel(fd, []) };
}

async function readSectors(fd: number, g: DiskGeometry, lba: bigint, count: number): Promise<Buffer> {
  const length = count * g.sectorSize;
  const at = byteOffset(g, lba, BigInt(count));
  const b = Buffer.alloc(length);
  for (let done = 0; done < length; ) {
    const { bytesRead } = await readAsync(fd, b, done, length - done, at + done);
    if (bytesRead === 0)
      throw new GptError('io', `read of LBA ${lba} (+${count}) ended early at byte ${at + done}`);
    done += bytesRead;
  }
  return b;
}

async function writeAll(fd: number, g: DiskGeometry, writes: readonly SectorWrite[]): Promise<void> {
  for (const w of writes) {
    const at = byteOffset(g, w.lba, BigInt(w.data.length / g.sectorSize));
    for (let done = 0; done < w.data.length; ) {
      const { bytesWritten } = await writeAsync(fd, w.data, done, w.data.length - done, at + done);
      if (bytesWritten === 0) throw new GptError('io', `write of LBA ${w.lba} made no progress`);
      done += bytesWritten;
    }
  }
}

// a table never reaches past the disk, and byte offsets stay exact as JS numbers (below 8 PiB)
function byteOffset(g: DiskGeometry, lba: bigint, count: bigint): number {
  if (lba < 0n || lba + count > g.diskSectors)
    throw new GptError('io', `LBA ${lba} (+${count}) is outside the disk's ${g.diskSectors} sectors`);
  const at = lba * BigInt(g.sectorSize);
  if (at > BigInt(Number.MAX_SAFE_INTEGER)) throw new GptError('io', `LBA ${lba} is beyond 8 PiB`);
  return Number(at);
}
