// ryanuber/columnize's SimpleFormat, which talosctl uses for `processes`: `|`-separated cells, trimmed,
// each column but the last padded to its widest cell and joined by two spaces.

/** columnize lays out `|`-separated lines; the result has no trailing newline. */
export function columnize(lines: readonly string[]): string {
  const rows = lines.map((l) => l.split('|').map((c) => c.trim()));
  const widths: number[] = [];
  for (const r of rows)
    r.forEach((c, i) => {
      widths[i] = Math.max(widths[i] ?? 0, c.length);
    });
  return rows
    .map((r) => r.map((c, i) => (i === r.length - 1 ? c : `${c.padEnd(widths[i]!)}  `)).join(''))
    .join('\n');
}
