// Sizes as upstream prints them in `pretty_size` (go-humanize's Bytes): SI units, one decimal below 10.

const UNITS = ['B', 'kB', 'MB', 'GB', 'TB', 'PB', 'EB'];

/** prettySize renders a byte count as humanize.Bytes does: 0 B, 512 B, 1.0 MB, 537 MB, 11 GB. */
export function prettySize(bytes: number): string {
  if (bytes < 10) return `${bytes} B`;
  const e = Math.floor(Math.log(bytes) / Math.log(1000));
  const val = Math.floor((bytes / 1000 ** e) * 10 + 0.5) / 10;
  return `${val < 10 ? val.toFixed(1) : halfEven(val)} ${UNITS[e]}`;
}

/** Go's %.0f rounds an exact half to even (536.5 → 536), where toFixed rounds it up. */
function halfEven(v: number): string {
  const f = Math.floor(v);
  if (v - f !== 0.5) return v.toFixed(0);
  return String(f % 2 === 0 ? f : f + 1);
}
