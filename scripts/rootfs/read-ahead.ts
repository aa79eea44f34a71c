// The read-ahead plan of machined's executable: which byte ranges stage 1's read-ahead child brings into
// the page cache while Node starts (src/init/stage1.c reads it from READ_AHEAD_PLAN_PATH).
//
// On the squashfs every block is decompressed whole by whoever touches it first, and the child races
// PID 1 for the blocks Node needs next. A third of node's executable is ICU's data (icudt*_dat, 32 MiB),
// of which the start reads a few items: reading all of it ahead only delays the blocks that matter.
// Under TCG, leaving it out made exec -> machined's first line ~0.15 s shorter and the emulator's CPU
// time ~1 s less. The items the start does read are read ahead on their own (ICU_ITEMS_READ_AT_START).
import { open } from 'node:fs/promises';
import { type ElfSymbol, findDynamicSymbols } from './elf.js';
import { type IcuItem, icuItems } from './icu-data.js';

export interface ByteRange {
  readonly offset: number;
  readonly length: number;
}

/** the most entries stage 1 accepts (MAX_RANGES in stage1.c) */
export const MAX_READ_AHEAD_RANGES = 16;

/** ICU's common data, e.g. icudt78_dat: the executable's largest object, read sparsely */
export const COLD_SYMBOL = /^icudt\d+_dat$/;

/**
 * ICU's items Node reads up to the API's first answer, by name inside the data (after its
 * "icudt<version><endianness>/" prefix): the time zone and calendar data V8's Date needs for its first
 * string (machined's first log line, HTTP/2's date header). Found from a native run's page faults.
 */
export const ICU_ITEMS_READ_AT_START = [
  'zoneinfo64.res',
  'supplementalData.res',
  'keyTypeData.res',
  'timezoneTypes.res',
  'metaZones.res',
  'zone/root.res',
  'zone/en.res',
  'zone/pool.res',
];

/**
 * planReadAhead: the parts of a `size`-byte file outside every cold range, plus the warm ranges (which
 * may lie inside cold ones), in file order, touching or overlapping ranges merged.
 */
export function planReadAhead(
  size: number,
  cold: readonly ByteRange[],
  warm: readonly ByteRange[] = [],
): ByteRange[] {
  const parts: ByteRange[] = [];
  let at = 0;
  for (const c of [...cold].sort((a, b) => a.offset - b.offset)) {
    const start = Math.max(0, Math.min(c.offset, size));
    if (start > at) parts.push({ offset: at, length: start - at });
    at = Math.max(at, Math.min(c.offset + c.length, size));
  }
  if (at < size) parts.push({ offset: at, length: size - at });
  for (const w of warm) {
    const start = Math.max(0, w.offset);
    const end = Math.min(size, w.offset + w.length);
    if (end > start) parts.push({ offset: start, length: end - start });
  }
  const out: { offset: number; length: number }[] = [];
  for (const p of parts.sort((a, b) => a.offset - b.offset)) {
    const last = out.at(-1);
    if (last && p.offset <= last.offset + last.length)
      last.length = Math.max(last.length, p.offset + p.length - last.offset);
    else out.push({ ...p });
  }
  return out;
}

/** a part of /sbin/init, or another file read whole */
export type ReadAheadEntry = ByteRange | { readonly path: string };

/**
 * renderReadAheadPlan writes the plan stage 1 parses: `#` comments, then one line per entry in the
 * order it reads them: "OFFSET LENGTH" for a part of /sbin/init, the absolute path of another file.
 */
export function renderReadAheadPlan(entries: readonly ReadAheadEntry[], comment: readonly string[]): string {
  if (entries.length > MAX_READ_AHEAD_RANGES)
    throw new Error(
      `read-ahead plan: ${entries.length} entries, stage 1 takes at most ${MAX_READ_AHEAD_RANGES}`,
    );
  const lines = comment.map((c) => `# ${c}`);
  for (const e of entries) {
    if ('path' in e) {
      if (!e.path.startsWith('/') || /[\n\0]/.test(e.path))
        throw new Error(`read-ahead plan: ${JSON.stringify(e.path)} is not an absolute path on one line`);
      lines.push(e.path);
    } else if (
      !Number.isSafeInteger(e.offset) ||
      !Number.isSafeInteger(e.length) ||
      e.offset < 0 ||
      e.length <= 0
    )
      throw new Error(`read-ahead plan: invalid range ${e.offset} +${e.length}`);
    else lines.push(`${e.offset} ${e.length}`);
  }
  return lines.map((l) => `${l}\n`).join('');
}

export interface ReadAheadPlan {
  readonly text: string;
  /** ICU's data, left out */
  readonly cold: readonly ElfSymbol[];
  /** the parts of it read all the same: its table of contents and ICU_ITEMS_READ_AT_START */
  readonly warm: readonly IcuItem[];
}

/**
 * readAheadPlanFor plans the read-ahead of `exe` (the SEA): the files in `first`, whole (paths in the
 * image), then all of the executable but ICU's data, when it has any, and of that data its table of
 * contents and the items the start reads.
 */
export async function readAheadPlanFor(
  exe: string,
  size: number,
  first: readonly string[] = [],
): Promise<ReadAheadPlan> {
  const cold = await findDynamicSymbols(exe, COLD_SYMBOL);
  const warm: IcuItem[] = [];
  const fh = await open(exe, 'r');
  try {
    for (const c of cold) {
      const data = Buffer.alloc(c.size);
      await fh.read(data, 0, c.size, c.offset);
      const { tocBytes, items } = icuItems(data);
      warm.push({ name: `${c.name} table of contents`, offset: c.offset, length: tocBytes });
      for (const it of items)
        if (ICU_ITEMS_READ_AT_START.includes(it.name.slice(it.name.indexOf('/') + 1)))
          warm.push({ ...it, offset: c.offset + it.offset });
    }
  } finally {
    await fh.close();
  }
  const ranges = planReadAhead(
    size,
    cold.map((c) => ({ offset: c.offset, length: c.size })),
    warm,
  );
  const text = renderReadAheadPlan(
    [...first.map((path) => ({ path })), ...ranges],
    [
      'read ahead by stage 1, in this order: other files whole, then /sbin/init (byte offset, length)',
      ...cold.map((c) => `left out: ${c.name} at ${c.offset}, ${c.size} bytes, but for`),
      ...warm.map((w) => `  ${w.name} at ${w.offset}, ${w.length} bytes`),
    ],
  );
  return { text, cold, warm };
}
