// Reading one regular file as a stream of chunks, for the Read RPC: the file is opened once, read until
// EOF (so /proc files with a zero size work), and closed however the reading ends.
import { open, stat } from 'node:fs/promises';
import { FsError, fsErrorOf } from './errors.js';

export interface ReadChunksOptions {
  readonly chunkSize?: number;
  readonly signal?: AbortSignal;
}

/** readChunks fails before the first chunk when the path is missing or not a regular file. */
export async function* readChunks(path: string, opts: ReadChunksOptions = {}): AsyncGenerator<Buffer> {
  let fh: Awaited<ReturnType<typeof open>>;
  try {
    const st = await stat(path);
    if (!st.isFile()) throw new FsError('not-a-file', path, 'path must be a regular file');
    fh = await open(path, 'r');
  } catch (cause) {
    throw fsErrorOf(path, cause);
  }
  try {
    const size = opts.chunkSize ?? 64 * 1024;
    for (;;) {
      opts.signal?.throwIfAborted();
      const buf = Buffer.allocUnsafe(size);
      const { bytesRead } = await fh.read(buf, 0, size, null);
      if (bytesRead === 0) return;
      yield buf.subarray(0, bytesRead);
    }
  } finally {
    await fh.close();
  }
}
