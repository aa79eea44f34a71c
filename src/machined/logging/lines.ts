// Line views over byte streams: split what a ring yields into lines, and pump line sources into a ring.
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

/**
 * pumpLines copies every line of a source (the kernel log, say) into a ring until the source ends
 * or the signal aborts; a source that fails ends the pump with its error.
 */
export async function pumpLines(
  source: AsyncIterable<string>,
  ring: LogRing,
  { signal }: { signal: AbortSignal },
): Promise<void> {
  const it = source[Symbol.asyncIterator]();
  let onAbort = (): void => {};
  const aborted = new Promise<IteratorResult<string>>((resolve) => {
    onAbort = () => resolve({ done: true, value: undefined });
    if (signal.aborted) onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    for (;;) {
      const r = await Promise.race([it.next(), aborted]);
      if (r.done) return;
      ring.write(r.value.endsWith('\n') ? r.value : `${r.value}\n`);
    }
  } finally {
    signal.removeEventListener('abort', onAbort);
    await it.return?.();
  }
}
