// META on a partition (or an image file): upstream's locks, the parent disk from sysfs, reads and the
// write order that keeps one copy valid at every instant.
import { type FileHandle, open, readFile, realpath, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { flock, type LockMode } from '../../flock.js';
import { ADV_LENGTH } from './adv.js';
import { MetaError } from './errors.js';
import { checkSize, META_COPY1_AT, META_COPY2_AT, type MetaParts } from './meta.js';
import { SYSLINUX_AREA } from './syslinux.js';

/** how long one lock is waited for unless the caller says otherwise */
export const META_LOCK_TIMEOUT_MS = 10_000;

export interface MetaIoOptions {
  /** the whole disk to lock first: found from sysfs when absent; `null` locks none (an image file) */
  readonly parentPath?: string | null;
  readonly signal?: AbortSignal;
  /** the bounded wait for each lock, in milliseconds */
  readonly lockTimeoutMs?: number;
}

/** MetaAccess is what a locked section gets: the open partition and its size in bytes. */
export interface MetaAccess {
  readonly handle: FileHandle;
  readonly size: number;
}

/**
 * findParentDisk names the whole disk a partition device belongs to (`/dev/loop0p1` → `/dev/loop0`), or
 * undefined for a whole disk or a regular file. The device's sysfs directory (the one /sys/class/block/<name>
 * points to) has a `partition` file when it is a partition, and then its parent directory is the disk.
 */
export async function findParentDisk(path: string): Promise<string | undefined> {
  const st = await stat(path, { bigint: true });
  if (!st.isBlockDevice()) return undefined;
  const dir = await sysfsDir(st.rdev);
  if (!(await exists(join(dir, 'partition')))) return undefined;
  // sysfs spells a '/' in a kernel name as '!' (cciss!c0d0 is /dev/cciss/c0d0)
  const node = `/dev/${basename(dirname(dir)).replaceAll('!', '/')}`;
  if (!(await exists(node)))
    throw new MetaError('parent-not-found', `${path}: parent disk ${node} has no device node`);
  return node;
}

/**
 * withMetaLock runs `fn` under upstream's discipline: an exclusive flock on the parent disk, so udev and
 * probes leave the disk alone, then a shared (read) or exclusive (write) flock on the partition itself.
 * Each lock is retried for a bounded time; closing the descriptors releases both.
 */
export async function withMetaLock<T>(
  path: string,
  mode: 'read' | 'write',
  opts: MetaIoOptions,
  fn: (access: MetaAccess) => Promise<T>,
): Promise<T> {
  opts.signal?.throwIfAborted();
  const parentPath = opts.parentPath === undefined ? await findParentDisk(path) : opts.parentPath;
  const parent = parentPath ? await open(parentPath, 'r') : undefined;
  try {
    if (parent && parentPath) await lockWithin(parent, 'exclusive', parentPath, opts);
    const handle = await open(path, mode === 'read' ? 'r' : 'r+');
    try {
      await lockWithin(handle, mode === 'read' ? 'shared' : 'exclusive', path, opts);
      return await fn({ handle, size: await sizeOf(handle, path) });
    } finally {
      await handle.close();
    }
  } finally {
    await parent?.close();
  }
}

/** readMetaParts reads both copies and the syslinux area under a read lock. */
export function readMetaParts(path: string, opts: MetaIoOptions = {}): Promise<MetaParts> {
  return withMetaLock(path, 'read', opts, async ({ handle, size }) => ({
    copy1: await readAt(handle, path, META_COPY1_AT, ADV_LENGTH),
    copy2: await readAt(handle, path, META_COPY2_AT, ADV_LENGTH),
    syslinux: await readAt(handle, path, size - SYSLINUX_AREA, SYSLINUX_AREA),
  }));
}

/** MetaWrite is one step of a write: bytes at an offset of the partition, synced before the next step. */
export interface MetaWrite {
  readonly at: number;
  readonly bytes: Buffer;
}

/**
 * metaWritePlan orders a write: copy 1, copy 2, then the syslinux area, each synced before the next. A write
 * torn anywhere leaves one valid copy: while copy 1 is being written copy 2 still holds the previous
 * contents, and from its sync on copy 1 holds the new ones while copy 2 is rewritten. Loading tries copy 1
 * first, so a reader sees the old state or the new one, never a mix.
 */
export const metaWritePlan = (parts: MetaParts, size: number): readonly MetaWrite[] => [
  { at: META_COPY1_AT, bytes: parts.copy1 },
  { at: META_COPY2_AT, bytes: parts.copy2 },
  { at: size - SYSLINUX_AREA, bytes: parts.syslinux },
];

/** writeMetaParts carries out the plan under a write lock, with an fsync after each step. */
export function writeMetaParts(path: string, parts: MetaParts, opts: MetaIoOptions = {}): Promise<void> {
  return withMetaLock(path, 'write', opts, async ({ handle, size }) => {
    for (const { at, bytes } of metaWritePlan(parts, size)) {
      await writeAt(handle, path, at, bytes);
      await handle.sync();
    }
  });
}

async function lockWithin(h: FileHandle, mode: LockMode, path: string, opts: MetaIoOptions): Promise<void> {
  const ms = opts.lockTimeoutMs ?? META_LOCK_TIMEOUT_MS;
  const timeout = AbortSignal.timeout(ms);
  try {
    await flock(h.fd, mode, { signal: opts.signal ? AbortSignal.any([opts.signal, timeout]) : timeout });
  } catch (e) {
    if (timeout.aborted && !opts.signal?.aborted) {
      throw new MetaError('lock-timeout', `${path}: ${mode} lock not taken within ${ms} ms`, { cause: e });
    }
    throw e;
  }
}

/** sizeOf is a file's length, or a block device's from sysfs (`size` counts 512-byte units on every device). */
async function sizeOf(h: FileHandle, path: string): Promise<number> {
  const st = await h.stat({ bigint: true });
  let size: number;
  if (st.isFile()) size = Number(st.size);
  else if (st.isBlockDevice())
    size = Number(await readFile(join(await sysfsDir(st.rdev), 'size'), 'utf8')) * 512;
  else throw new MetaError('bad-path', `${path}: neither a block device nor a regular file`);
  checkSize(size, path);
  return size;
}

/** sysfsDir resolves /sys/dev/block/<major>:<minor>, the device's directory under /sys/devices. */
function sysfsDir(rdev: bigint): Promise<string> {
  // glibc's dev_t encoding, which libuv's stat fills in on every architecture
  const major = ((rdev >> 8n) & 0xfffn) | ((rdev >> 32n) & ~0xfffn);
  const minor = (rdev & 0xffn) | ((rdev >> 12n) & ~0xffn);
  return realpath(`/sys/dev/block/${major}:${minor}`);
}

async function readAt(h: FileHandle, path: string, at: number, length: number): Promise<Buffer> {
  const b = Buffer.alloc(length);
  for (let done = 0; done < length; ) {
    const { bytesRead } = await h.read(b, done, length - done, at + done);
    if (bytesRead === 0)
      throw new MetaError('short-io', `${path}: read ended at ${at + done}, wanted up to ${at + length}`);
    done += bytesRead;
  }
  return b;
}

async function writeAt(h: FileHandle, path: string, at: number, bytes: Buffer): Promise<void> {
  for (let done = 0; done < bytes.length; ) {
    const { bytesWritten } = await h.write(bytes, done, bytes.length - done, at + done);
    if (bytesWritten === 0) throw new MetaError('short-io', `${path}: write stopped at ${at + done}`);
    done += bytesWritten;
  }
}

const exists = (p: string): Promise<boolean> =>
  stat(p).then(
    () => true,
    () => false,
  );
