// Go duration text as flags take it ("1m", "30s", "1m30s"), read into seconds.
import { UsageError } from './args.js';

/** parseGoDuration reads the `--timeout` forms people use into seconds; anything else is a UsageError. */
export function parseGoDuration(text: string): number {
  const re = /(\d+(?:\.\d+)?)(h|ms|m|s)/gy;
  const unit: Record<string, number> = { h: 3600, m: 60, s: 1, ms: 0.001 };
  let total = 0;
  let end = 0;
  for (const m of text.matchAll(re)) {
    total += Number(m[1]) * unit[m[2]!]!;
    end = m.index + m[0].length;
  }
  if (text === '' || end !== text.length) throw new UsageError(`invalid duration ${JSON.stringify(text)}`);
  return total;
}
