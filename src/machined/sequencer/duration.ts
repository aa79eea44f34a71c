// formatDuration renders elapsed milliseconds the way the sequencer's log lines show them.

export function formatDuration(ms: number): string {
  if (ms < 1) return `${Math.round(ms * 1000)}µs`;
  if (ms < 1000) return `${trim(ms.toFixed(3))}ms`;
  if (ms < 60_000) return `${trim((ms / 1000).toFixed(3))}s`;
  const m = Math.floor(ms / 60_000);
  return `${m}m${trim(((ms - m * 60_000) / 1000).toFixed(3))}s`;
}

const trim = (s: string): string => s.replace(/\.?0+$/, '');
