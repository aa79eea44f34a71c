// The read-ahead plan of machined's executable: which byte ranges stage 1's read-ahead child brings into
// the page cache while Node starts (src/init/stage1.c reads it from READ_AHEAD_PLAN_PATH).
//
// On the squashfs every block is decompressed whole by whoever touches it first, and the child races
// PID 1 for the blocks Node needs next. With a start trace of the SEA's node build (start-trace.ts) the
// plan is the blocks the start touches, in the order it touches them. Without one it is the file in
// order, but for ICU's data (icudt*_dat, 32 MiB, a third of node's executable), of which the start reads
// a few items: reading all of it ahead only delayed the blocks that matter (under TCG, exec -> machined's
// first line ~0.15 s shorter and the emulator's CPU time ~1 s less without it). The items the start does
// read are read ahead on their own (ICU_ITEMS_READ_AT_START).
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ElfSymbol } from './elf.js';
import { type LoadSegment, readElfLayout } from './elf-layout.js';
import { ICU_DATA_SYMBOL, type IcuItem, icuItems, itemPath } from './icu-data.js';
import { icuDataDigest, readIcuData } from './icu-symbol.js';
import { parseStartTrace, type StartTrace, TRACE_WINDOW } from './start-trace.js';

export interface ByteRange {
  readonly offset: number;
  readonly length: number;
}

/** the most entries stage 1 accepts (MAX_RANGES in stage1.c) */
export const MAX_READ_AHEAD_RANGES = 1024;

/** ICU's common data, e.g. icudt78_dat: the executable's largest object, read sparsely */
export const COLD_SYMBOL = ICU_DATA_SYMBOL;

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
  /** ICU's data, left out (a plan without a trace) */
  readonly cold: readonly ElfSymbol[];
  /** the parts of it read all the same: its table of contents and ICU_ITEMS_READ_AT_START */
  readonly warm: readonly IcuItem[];
  /** the start trace the plan follows, when there is one for the executable's node */
  readonly trace?: string;
  /** a trace of the executable's node that the plan could not follow: made on other ICU data */
  readonly staleTrace?: string;
}

export interface PlanOptions {
  /** the other files to read whole, first (paths in the image), unless the trace places them */
  readonly first?: readonly string[];
  /** start traces, one per node build as `<build id>.trace` in `dir`, and the squashfs block size */
  readonly traces?: { readonly dir: string; readonly blockSize: number };
}

/**
 * readAheadPlanFor plans the read-ahead of `exe` (the SEA): with a start trace of its node and its ICU
 * data, the blocks the start touches in the order it touches them (tracedPlan); without one, the files
 * in `first` whole, then all of the executable but ICU's data, when it has any, and of that data its
 * table of contents and the items the start reads.
 */
export async function readAheadPlanFor(
  exe: string,
  size: number,
  opts: PlanOptions = {},
): Promise<ReadAheadPlan> {
  const first = opts.first ?? [];
  if (opts.traces !== undefined) {
    const layout = await readElfLayout(exe);
    const file = layout.buildId === undefined ? undefined : join(opts.traces.dir, `${layout.buildId}.trace`);
    // no trace of this node build is the usual case for another node; an unreadable one is an error
    const text =
      file === undefined
        ? undefined
        : await readFile(file, 'utf8').catch((e: NodeJS.ErrnoException) => {
            if (e.code === 'ENOENT') return undefined;
            throw e;
          });
    if (file !== undefined && text !== undefined) {
      const trace = parseStartTrace(text, file);
      if (trace.icuData !== (await icuDataDigest(exe)))
        return { ...(await icuPlan(exe, size, first)), staleTrace: file };
      const entries = tracedPlan(trace, layout.loads, size, opts.traces.blockSize);
      const placed = new Set(trace.entries.flatMap((e) => ('file' in e ? [e.file] : [])));
      return {
        text: renderReadAheadPlan(
          [...first.filter((f) => !placed.has(f)).map((path) => ({ path })), ...entries],
          [
            `read ahead by stage 1, in this order: the blocks machined's start touches, as the start trace of node build ${trace.buildId} saw them`,
            '(other files whole, /sbin/init by byte offset and length)',
          ],
        ),
        cold: [],
        warm: [],
        trace: file,
      };
    }
  }
  return icuPlan(exe, size, first);
}

/**
 * tracedPlan turns a start trace into read-ahead entries for an executable laid out as `loads` (`size`
 * bytes): each window's bytes, widened to the `blockSize` blocks that hold them (the squashfs decompresses
 * a block whole, whoever asks), each block once, in the trace's order; blocks next to each other in that
 * order join into one range. Windows the executable has no bytes for are skipped; files stay entries.
 */
export function tracedPlan(
  trace: StartTrace,
  loads: readonly LoadSegment[],
  size: number,
  blockSize: number,
): ReadAheadEntry[] {
  const out: ReadAheadEntry[] = [];
  const taken = new Set<number>();
  let run: { first: number; end: number } | undefined;
  const flush = () => {
    if (run)
      out.push({
        offset: run.first * blockSize,
        length: Math.min(run.end * blockSize, size) - run.first * blockSize,
      });
    run = undefined;
  };
  for (const e of trace.entries) {
    if ('file' in e) {
      flush();
      out.push({ path: e.file });
      continue;
    }
    for (const s of loads) {
      const lo = Math.max(e.window, s.vaddr);
      const hi = Math.min(e.window + TRACE_WINDOW, s.vaddr + s.filesz);
      if (lo >= hi) continue;
      const from = Math.floor((s.offset + lo - s.vaddr) / blockSize);
      const to = Math.floor((s.offset + hi - s.vaddr - 1) / blockSize);
      for (let b = from; b <= to; b++) {
        if (taken.has(b) || b * blockSize >= size) continue;
        taken.add(b);
        if (run && run.end === b) run.end = b + 1;
        else {
          flush();
          run = { first: b, end: b + 1 };
        }
      }
    }
  }
  flush();
  return out;
}

/**
 * icuPlan plans without a trace: the files in `first`, whole (paths in the image), then all of the
 * executable but ICU's data, when it has any, and of that data its table of contents and the items the
 * start reads.
 */
export async function icuPlan(
  exe: string,
  size: number,
  first: readonly string[] = [],
): Promise<ReadAheadPlan> {
  const icu = await readIcuData(exe);
  const cold = icu ? [icu.symbol] : [];
  const warm: IcuItem[] = [];
  if (icu) {
    const { symbol, data } = icu;
    // zero-filled: a trimmed package (scripts/sea/icu-trim.ts) ends well before the symbol does
    const { tocBytes, items } = icuItems(data, { zeroFilled: true });
    warm.push({ name: `${symbol.name} table of contents`, offset: symbol.offset, length: tocBytes });
    for (const it of items)
      if (ICU_ITEMS_READ_AT_START.includes(itemPath(it.name)))
        warm.push({ ...it, offset: symbol.offset + it.offset });
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
