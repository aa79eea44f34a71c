// Byte sizes as go-humanize's Bytes prints them (SI units: "83 MB", "1.5 kB", "9 B"), as `processes` shows memory.

const UNITS = ['B', 'kB', 'MB', 'GB', 'TB', 'PB', 'EB'] as const;

/** humanizeBytes: under 10 bytes exact; otherwise one decimal below 10 of the unit, none above. */
export function humanizeBytes(n: number): string {
  if (n < 10) return `${n} B`;
  const e = Math.floor(Math.log(n) / Math.log(1000));
  const val = Math.floor((n / 1000 ** e) * 10 + 0.5) / 10;
  return val < 10 ? `${val.toFixed(1)} ${UNITS[e]}` : `${val.toFixed(0)} ${UNITS[e]}`;
}
