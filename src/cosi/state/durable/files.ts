// The store's files: their names and magic, and the fsync discipline that makes creation and rename durable.
import { type FileHandle, open, rename } from 'node:fs/promises';
import { join } from 'node:path';

/** Every log starts with this; a file without it is not ours. */
export const LOG_MAGIC = Buffer.from('COSILOG1', 'latin1');
export const SNAPSHOT_MAGIC = Buffer.from('COSISNP1', 'latin1');
export const SNAPSHOT = 'snapshot';
export const TMP_SUFFIX = '.tmp';

// Zero-padded so a directory listing sorts in replay order.
export const logName = (gen: number): string => `log.${String(gen).padStart(10, '0')}`;

/** logGeneration reads the generation from a log file name, or undefined for any other file. */
export function logGeneration(name: string): number | undefined {
  const m = /^log\.(\d{10,})$/.exec(name);
  return m ? Number(m[1]) : undefined;
}

/** fsyncDir makes created, renamed and removed entries of `dir` durable. */
export async function fsyncDir(dir: string): Promise<void> {
  const fh = await open(dir, 'r');
  try {
    await fh.sync();
  } catch (e) {
    // Some file systems cannot sync a directory; their entries are durable by other means.
    if ((e as NodeJS.ErrnoException).code !== 'EINVAL') throw e;
  } finally {
    await fh.close();
  }
}

/** writeFully writes all of `buf` at `position`, looping over short writes. */
export async function writeFully(fh: FileHandle, buf: Uint8Array, position: number): Promise<void> {
  let done = 0;
  while (done < buf.length) {
    const { bytesWritten } = await fh.write(buf, done, buf.length - done, position + done);
    done += bytesWritten;
  }
}

/**
 * writeAtomically writes `chunks` to `name` so that the name holds either the old file or the whole
 * new one: a temp file, synced, renamed over, and the directory synced.
 */
export async function writeAtomically(
  dir: string,
  name: string,
  chunks: Iterable<Uint8Array>,
  signal?: AbortSignal,
): Promise<void> {
  const tmp = join(dir, name + TMP_SUFFIX);
  const fh = await open(tmp, 'w');
  try {
    let at = 0;
    for (const c of chunks) {
      signal?.throwIfAborted();
      await writeFully(fh, c, at);
      at += c.length;
    }
    await fh.sync();
  } finally {
    await fh.close();
  }
  await rename(tmp, join(dir, name));
  await fsyncDir(dir);
}

/** createLog makes an empty log of generation `gen` durably and opens it for writing. */
export async function createLog(dir: string, gen: number): Promise<FileHandle> {
  await writeAtomically(dir, logName(gen), [LOG_MAGIC]);
  return open(join(dir, logName(gen)), 'r+');
}
