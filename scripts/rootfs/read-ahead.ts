// The read-ahead plan of machined's executable: which byte ranges stage 1's read-ahead child brings into
// the page cache while Node starts (src/init/stage1.c reads it from READ_AHEAD_PLAN_PATH).
//
// On the squashfs every block is decompressed whole by whoever touches it first, and the child races
// PID 1 for the blocks Node needs next. A third of node's executable is ICU's data (icudt*_dat, 32 MiB),
// of which the start reads a few pages: reading it ahead only delays the blocks that matter. Under TCG,
// leaving it out made exec -> machined's first line ~0.15 s shorter and the emulator's CPU time ~1 s less.
import { type ElfSymbol, findDynamicSymbols } from './elf.js';

export interface ByteRange {
  readonly offset: number;
  readonly length: number;
}

/** the most ranges stage 1 accepts (MAX_RANGES in stage1.c) */
export const MAX_READ_AHEAD_RANGES = 16;

/** ICU's common data, e.g. icudt78_dat: the executable's largest object, read sparsely */
export const COLD_SYMBOL = /^icudt\d+_dat$/;

/** planReadAhead: the parts of a `size`-byte file outside every cold range, in file order. */
export function planReadAhead(size: number, cold: readonly ByteRange[]): ByteRange[] {
  const out: ByteRange[] = [];
  let at = 0;
  for (const c of [...cold].sort((a, b) => a.offset - b.offset)) {
    const start = Math.max(0, Math.min(c.offset, size));
    if (start > at) out.push({ offset: at, length: start - at });
    at = Math.max(at, Math.min(c.offset + c.length, size));
  }
  if (at < size) out.push({ offset: at, length: size - at });
  return out;
}

/** renderReadAheadPlan writes the plan stage 1 parses: `#` comments, then one "OFFSET LENGTH" line per range. */
export function renderReadAheadPlan(ranges: readonly ByteRange[], comment: readonly string[]): string {
  if (ranges.length > MAX_READ_AHEAD_RANGES)
    throw new Error(
      `read-ahead plan: ${ranges.length} ranges, stage 1 takes at most ${MAX_READ_AHEAD_RANGES}`,
    );
  for (const r of ranges)
    if (!Number.isSafeInteger(r.offset) || !Number.isSafeInteger(r.length) || r.offset < 0 || r.length <= 0)
      throw new Error(`read-ahead plan: invalid range ${r.offset} +${r.length}`);
  const lines = [...comment.map((c) => `# ${c}`), ...ranges.map((r) => `${r.offset} ${r.length}`)];
  return lines.map((l) => `${l}\n`).join('');
}

/** readAheadPlanFor plans the read-ahead of `exe` (the SEA): all of it but ICU's data, when it has any. */
export async function readAheadPlanFor(
  exe: string,
  size: number,
): Promise<{ text: string; cold: ElfSymbol[] }> {
  const cold = await findDynamicSymbols(exe, COLD_SYMBOL);
  const ranges = planReadAhead(
    size,
    cold.map((c) => ({ offset: c.offset, length: c.size })),
  );
  const text = renderReadAheadPlan(ranges, [
    '/sbin/init read ahead by stage 1, in this order: byte offset, length',
    ...cold.map((c) => `left out: ${c.name} at ${c.offset}, ${c.size} bytes`),
  ]);
  return { text, cold };
}
