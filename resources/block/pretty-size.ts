// Sizes as upstream prints them in `pretty_size` (go-humanize's Bytes): SI units, one decimal below 10.
// humanateBytes is go-humanize's shared core, which IBytes (1024-based) uses too.

const UNITS = ['B', 'kB', 'MB', 'GB', 'TB', 'PB', 'EB'];

/** prettySize renders a byte count as humanize.Bytes does: 0 B, 512 B, 1.0 MB, 537 MB, 11 GB. */
export function prettySize(bytes: number): string {
  return humanateBytes(bytes, 1000, UNITS);
}

/**
 * humanateBytes is go-humanize's: the count in the largest power of `base` it reaches, named from `units`
 * (bytes first) and rounded to tenths, shown with one decimal below 10 and none from 10 on.
 */
export function humanateBytes(bytes: number, base: number, units: readonly string[]): string {
  if (bytes < 10) return `${bytes} B`;
  const e = Math.floor(Math.log(bytes) / Math.log(base));
  const val = Math.floor((bytes / base ** e) * 10 + 0.5) / 10;
  return `${val < 10 ? val.toFixed(1) : halfEven(val)} ${units[e]}`;
}

/** Go's %.0f rounds an exact half to even (536.5 → 536), where toFixed rounds it up. */
function halfEven(v: number): string {
  const f = Math.floor(v);
  if (v - f !== 0.5) return v.toFixed(0);
  return String(f % 2 === 0 ? f : f + 1);
}
