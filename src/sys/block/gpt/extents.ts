// Free space of a table as LBA extents, and the alignment arithmetic that places partitions in it.
import type { Partition } from './entry.js';

/** Extent is an inclusive LBA range. */
export interface Extent {
  readonly first: bigint;
  readonly last: bigint;
}

export const alignUp = (lba: bigint, to: bigint): bigint => ((lba + to - 1n) / to) * to;
export const alignDown = (lba: bigint, to: bigint): bigint => (lba / to) * to;

/** freeExtents lists the gaps between partitions within [firstUsable, lastUsable], in disk order. */
export function freeExtents(
  partitions: readonly Partition[],
  firstUsable: bigint,
  lastUsable: bigint,
): Extent[] {
  const byStart = [...partitions].sort((a, b) =>
    a.firstLba < b.firstLba ? -1 : a.firstLba > b.firstLba ? 1 : 0,
  );
  const out: Extent[] = [];
  let cursor = firstUsable;
  for (const p of byStart) {
    if (p.firstLba > cursor) out.push({ first: cursor, last: p.firstLba - 1n });
    if (p.lastLba + 1n > cursor) cursor = p.lastLba + 1n;
  }
  if (cursor <= lastUsable) out.push({ first: cursor, last: lastUsable });
  return out;
}

/**
 * alignedWhole is the part of an extent that starts on an alignment boundary and ends just before one, as
 * upstream sizes "the rest" and growth: the partition's size is a whole number of alignment units, so the
 * next one can start aligned too (sgdisk warns about a partition that does not end on a boundary).
 */
export function alignedWhole(e: Extent, alignment: bigint): Extent | undefined {
  const first = alignUp(e.first, alignment);
  const last = alignDown(e.last + 1n, alignment) - 1n;
  return last >= first ? { first, last } : undefined;
}

export const extentSectors = (e: Extent): bigint => e.last - e.first + 1n;

/** laterLba is the larger of two LBAs (Math.max takes no bigint). */
export function laterLba(a: bigint, b: bigint): bigint {
  if (a >= b) return a;
  return b;
}

/** earliestLba is the smallest of some LBAs, undefined for none. */
export function earliestLba(lbas: readonly bigint[]): bigint | undefined {
  let out: bigint | undefined;
  for (const l of lbas) if (out === undefined || l < out) out = l;
  return out;
}
