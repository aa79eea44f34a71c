// Reading a log file as upstream's file chunker does: from the start of its last N lines (all of it when
// N < 0), then, when following, whatever is appended until the signal aborts.
import { watch } from 'node:fs';
import { open } from 'node:fs/promises';
import { fsErrorOf } from './errors.js';

export interface TailFileOptions {
  /** lines of the past to send: < 0 all of them, 0 none */
  readonly tailLines: number;
  readonly follow: boolean;
  readonly signal: AbortSignal;
}

const BLOCK = 64 * 1024;
/** a watch event can be missed (a file replaced under it): look again at least this often */
const POLL_MS = 500;

/** tailFile fails before the first chunk when the file cannot be opened. */
export async function* tailFile(path: string, opts: TailFileOptions): AsyncGenerator<Buffer> {
  let fh: Awaited<ReturnType<typeof open>>;
  try {
    fh = await open(path, 'r');
  } catch (cause) {
    throw fsErrorOf(path, cause);
  }
  const changed = opts.follow ? changeSignal(path, opts.signal) : undefined;
  try {
    let pos = opts.tailLines < 0 ? 0 : await lastLinesOffset(fh, opts.tailLines);
    for (;;) {
      const buf = Buffer.allocUnsafe(BLOCK);
      const { bytesRead } = await fh.read(buf, 0, BLOCK, pos);
      if (bytesRead > 0) {
        pos += bytesRead;
        yield buf.subarray(0, bytesRead);
        continue;
      }
      if (!changed || opts.signal.aborted) return;
      await changed.next();
      if (opts.signal.aborted) return;
    }
  } finally {
    changed?.close();
    await fh.close();
  }
}

type Handle = Awaited<ReturnType<typeof open>>;

/** lastLinesOffset finds where the last `n` lines start, reading backwards a block at a time. */
async function lastLinesOffset(fh: Handle, n: number): Promise<number> {
  const { size } = await fh.stat();
  let end = size;
  let seen = 0;
  // a final newline ends the last line; it does not start one more
  let skip = size > 0 && (await byteAt(fh, size - 1)) === 0x0a ? 1 : 0;
  while (end > 0) {
    const start = Math.max(0, end - BLOCK);
    const buf = Buffer.allocUnsafe(end - start);
    await fh.read(buf, 0, buf.length, start);
    const found = lineStartIn(buf, buf.length - skip, n - seen);
    if (found.offset !== undefined) return start + found.offset;
    seen += found.newlines;
    skip = 0;
    end = start;
  }
  return 0;
}

/** lineStartIn counts newlines backwards from `from`; the offset after the `need`-th, if it is there. */
export function lineStartIn(buf: Buffer, from: number, need: number): { offset?: number; newlines: number } {
  if (need <= 0) return { offset: from + (from < buf.length ? 1 : 0), newlines: 0 };
  let count = 0;
  for (let i = from - 1; i >= 0; i--)
    if (buf[i] === 0x0a && ++count === need) return { offset: i + 1, newlines: count };
  return { newlines: count };
}

async function byteAt(fh: Handle, at: number): Promise<number> {
  const b = Buffer.alloc(1);
  await fh.read(b, 0, 1, at);
  return b[0]!;
}

/** changeSignal resolves next() on the file's next change, a poll tick or the abort. */
function changeSignal(path: string, signal: AbortSignal) {
  let wake: (() => void) | undefined;
  const fire = () => {
    wake?.();
    wake = undefined;
  };
  const watcher = watch(path, { persistent: false }, fire);
  watcher.on('error', fire);
  signal.addEventListener('abort', fire, { once: true });
  return {
    next: () =>
      new Promise<void>((resolve) => {
        const timer = setTimeout(fire, POLL_MS);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      }),
    close: () => {
      watcher.close();
      signal.removeEventListener('abort', fire);
    },
  };
}
