// Go's time.Duration.String for whole seconds and above ("1h2m3s", "45s", "0s"), as talosctl prints ages.

/** goDuration formats milliseconds, rounded to the second first as talosctl's `Round(time.Second)` does. */
export function goDuration(ms: number): string {
  let s = Math.round(ms / 1000);
  if (s === 0) return '0s';
  const sign = s < 0 ? '-' : '';
  s = Math.abs(s);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = s % 60;
  if (h > 0) return `${sign}${h}h${m}m${sec}s`;
  if (m > 0) return `${sign}${m}m${sec}s`;
  return `${sign}${sec}s`;
}
