// A small benchmark harness: each group names the figure it guards and its target, then prints measurements.

export interface Figure {
  group: string;
  name: string;
  value: number;
  unit: string;
  /** target to reach or beat, with its direction */
  target?: { op: '>=' | '<='; value: number };
}

const figures: Figure[] = [];
let current = '';

/** group runs one benchmark group; its title says what it guards, e.g. "inmem state (target ≥ 100k creates/s)". */
export async function group(title: string, fn: () => Promise<void>): Promise<void> {
  current = title;
  console.log(`\n## ${title}`);
  await fn();
}

/** figure records and prints one measurement. */
export function figure(name: string, value: number, unit: string, target?: Figure['target']): void {
  const f: Figure = { group: current, name, value, unit, ...(target ? { target } : {}) };
  figures.push(f);
  const shown =
    Number.isInteger(value) || Math.abs(value) >= 100
      ? Math.round(value).toLocaleString('en-US')
      : value.toFixed(value < 10 ? 3 : 1);
  const verdict = target
    ? ` (target ${target.op} ${target.value.toLocaleString('en-US')}: ${meets(f) ? 'met' : 'MISSED'})`
    : '';
  console.log(`  ${name.padEnd(58)} ${shown.padStart(14)} ${unit}${verdict}`);
}

export const meets = (f: Figure): boolean =>
  !f.target || (f.target.op === '>=' ? f.value >= f.target.value : f.value <= f.target.value);

export const allFigures = (): readonly Figure[] => figures;

/** rate runs `op` n times (awaiting each) and returns operations per second. */
export async function rate(n: number, op: (i: number) => unknown): Promise<number> {
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < n; i++) await op(i);
  const s = Number(process.hrtime.bigint() - t0) / 1e9;
  return n / s;
}

/** best runs a measurement several times and keeps the best (least disturbed) result. */
export async function best(
  times: number,
  measure: () => Promise<number>,
  higherIsBetter = true,
): Promise<number> {
  let out = higherIsBetter ? 0 : Number.POSITIVE_INFINITY;
  for (let i = 0; i < times; i++) {
    const v = await measure();
    out = higherIsBetter ? Math.max(out, v) : Math.min(out, v);
  }
  return out;
}

/** percentile of an unsorted sample, p in [0, 100]. */
export function percentile(sample: number[], p: number): number {
  if (sample.length === 0) return Number.NaN;
  const s = [...sample].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))]!;
}

export const nowMs = (): number => Number(process.hrtime.bigint()) / 1e6;

/** heapUsed after forcing a full collection (needs --expose-gc). */
export function settledHeap(): number {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('benchmarks need node --expose-gc');
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}
