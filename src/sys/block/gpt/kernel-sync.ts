// Making the kernel use a table just written, partition by partition with BLKPG, as upstream does: only
// what changed is touched. A partition that is gone is deleted; one whose start stayed is resized in place
// (the kernel allows that while it is open: EPHEMERAL grows under a mounted STATE); one that moved is
// deleted and added again; a new one is added. BLKRRPART is not used: the kernel refuses it (EBUSY) while
// any partition of the disk is open, and on a kernel built without CONFIG_EFI_PARTITION it succeeds and
// finds nothing (measured on 6.18 with the option unset). A change the kernel refuses, such as moving or
// deleting an open partition, is a typed error naming the partition; the kernel's view is checked after.
import { fstatSync, readdirSync, readFileSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { isSysError } from '../../errno.js';
import { GptError } from './errors.js';
import { blkpg } from './ioctl.js';
import { type GptTable, partitionBytes } from './table.js';

/** KernelPartition is one partition as the kernel knows it, in bytes. */
export interface KernelPartition {
  readonly number: number;
  readonly offset: bigint;
  readonly length: bigint;
}

export type KernelOp =
  | { readonly op: 'delete'; readonly number: number }
  | ({ readonly op: 'add' | 'resize' } & KernelPartition);

/** KernelSync lists what BLKPG changed; nothing when the kernel already had the table's partitions. */
export interface KernelSync {
  readonly ops: readonly KernelOp[];
}

export const kernelPartitionsOf = (t: GptTable): KernelPartition[] =>
  t.partitions.map((p) => ({ number: p.number, ...partitionBytes(t, p) }));

/**
 * planKernelSync turns what the kernel has into what the table says: deletes first, then resizes that
 * shrink, then those that grow, then adds, so no step overlaps a partition the next step removes.
 */
export function planKernelSync(
  current: readonly KernelPartition[],
  wanted: readonly KernelPartition[],
): KernelOp[] {
  const now = new Map(current.map((p) => [p.number, p]));
  const want = new Map(wanted.map((p) => [p.number, p]));
  const deletes: KernelOp[] = [];
  const shrinks: KernelOp[] = [];
  const grows: KernelOp[] = [];
  const adds: KernelOp[] = [];
  for (const c of current) if (!want.has(c.number)) deletes.push({ op: 'delete', number: c.number });
  for (const w of wanted) {
    const c = now.get(w.number);
    if (!c) adds.push({ op: 'add', ...w });
    else if (c.offset !== w.offset) {
      deletes.push({ op: 'delete', number: w.number });
      adds.push({ op: 'add', ...w });
    } else if (c.length > w.length) shrinks.push({ op: 'resize', ...w });
    else if (c.length < w.length) grows.push({ op: 'resize', ...w });
  }
  const byNumber = (a: KernelOp, b: KernelOp) => a.number - b.number;
  return [...deletes.sort(byNumber), ...shrinks, ...grows, ...adds.sort(byNumber)];
}

/** syncKernel brings the kernel's partitions of the disk open on `fd` in line with `wanted`. */
export function syncKernel(fd: number, wanted: readonly KernelPartition[]): KernelSync {
  const ops = planKernelSync(kernelPartitions(fd), wanted);
  for (const o of ops) {
    try {
      if (o.op === 'delete') blkpg(fd, 'delete', o.number);
      else blkpg(fd, o.op, o.number, o.offset, o.length);
    } catch (e) {
      const why = isSysError(e, 'EBUSY')
        ? ' (it is in use)'
        : isSysError(e, 'EINVAL') && o.op === 'add'
          ? ' (the device takes no partitions, or it overlaps one the kernel keeps)'
          : '';
      throw new GptError(
        'kernel-sync',
        `the table is written, but the kernel could not ${o.op} partition ${o.number}${why}: ${errText(e)}`,
        { cause: e },
      );
    }
  }
  const left = planKernelSync(kernelPartitions(fd), wanted);
  if (left.length)
    throw new GptError(
      'kernel-sync',
      `the table is written, but the kernel still differs for partition ${left.map((o) => o.number).join(', ')}`,
    );
  return { ops };
}

/** kernelPartitions reads the disk's partitions from sysfs (start and size count 512-byte units). */
export function kernelPartitions(fd: number): KernelPartition[] {
  const dir = sysfsDir(fd);
  const out: KernelPartition[] = [];
  for (const name of readdirSync(dir)) {
    let number: number;
    try {
      number = Number(readFileSync(join(dir, name, 'partition'), 'utf8'));
    } catch {
      continue; // not a partition: queue/, holders/, power/ …
    }
    const unit = (f: string) => BigInt(readFileSync(join(dir, name, f), 'utf8').trim()) * 512n;
    out.push({ number, offset: unit('start'), length: unit('size') });
  }
  return out.sort((a, b) => a.number - b.number);
}

/** sysfsDir is /sys/dev/block/<major>:<minor> of the device open on `fd`, resolved. */
export function sysfsDir(fd: number): string {
  const rdev = fstatSync(fd, { bigint: true }).rdev;
  // glibc's dev_t encoding, which libuv's stat fills in on every architecture
  const major = ((rdev >> 8n) & 0xfffn) | ((rdev >> 32n) & ~0xfffn);
  const minor = (rdev & 0xffn) | ((rdev >> 12n) & ~0xffn);
  return realpathSync(`/sys/dev/block/${major}:${minor}`);
}

const errText = (e: unknown): string => (e instanceof Error ? e.message : String(e));
