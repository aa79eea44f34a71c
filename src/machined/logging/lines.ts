// Line views over byte streams: split what a ring yields into lines.
import type { LogRing, ReadOptions } from './ring.js';

/** readLines yields the ring's output line by line (without newlines); a trailing partial line is held back while following. */
export async function* readLines(ring: LogRing, opts: ReadOptions): AsyncGenerator<string> {
  let rest = '';
  for await (const chunk of ring.read(opts)) {
    const parts = (rest + chunk.toString('utf8')).split('\n');
    rest = parts.pop() ?? '';
    for (const line of parts) {
      if (opts.signal.aborted) return;
      yield line;
    }
  }
  if (rest !== '' && !opts.signal.aborted) yield rest;
}
