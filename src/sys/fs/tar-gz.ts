// A gzip'd tar of a path, streamed: what upstream's Copy sends. Entries that cannot be archived are skipped
// and reported, as upstream does, rather than ending the archive.
import type { Stats } from 'node:fs';
import { open } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import { TAR_END, type TarEntry, type TarEntryType, tarHeader, tarPadding } from './tar.js';
import { walk } from './walk.js';

const CHUNK = 64 * 1024;

/** tarTypeOf maps an lstat result to a tar type; sockets have none and are skipped. */
function tarTypeOf(st: Stats): TarEntryType | undefined {
  if (st.isFile()) return 'file';
  if (st.isDirectory()) return 'directory';
  if (st.isSymbolicLink()) return 'symlink';
  if (st.isCharacterDevice()) return 'char';
  if (st.isBlockDevice()) return 'block';
  if (st.isFIFO()) return 'fifo';
  return undefined;
}

/** tarEntryOf builds the header fields of one walked entry. */
export function tarEntryOf(relPath: string, st: Stats, link: string): TarEntry | undefined {
  const type = tarTypeOf(st);
  if (!type) return undefined;
  const major = Math.floor(st.rdev / 256) & 0xfff;
  const minor = (st.rdev & 0xff) | ((st.rdev >> 12) & 0xfff00);
  return {
    name: type === 'directory' ? `${relPath}/` : relPath,
    type,
    mode: st.mode & 0o7777,
    uid: st.uid,
    gid: st.gid,
    size: type === 'file' ? st.size : 0,
    mtime: Math.floor(st.mtimeMs / 1000),
    ...(type === 'symlink' ? { linkname: link } : {}),
    ...(type === 'char' || type === 'block' ? { devmajor: major, devminor: minor } : {}),
  };
}

/**
 * fileData yields exactly `size` bytes of a file: a file that grew is cut at the size in its header and one
 * that shrank is padded with zeros, because the header is already written.
 */
async function* fileData(path: string, size: number, signal?: AbortSignal): AsyncGenerator<Buffer> {
  const fh = await open(path, 'r');
  try {
    let left = size;
    while (left > 0) {
      signal?.throwIfAborted();
      const buf = Buffer.allocUnsafe(Math.min(CHUNK, left));
      const { bytesRead } = await fh.read(buf, 0, buf.length, null);
      if (bytesRead === 0) {
        yield Buffer.alloc(left);
        return;
      }
      left -= bytesRead;
      yield buf.subarray(0, bytesRead);
    }
  } finally {
    await fh.close();
  }
}

// Linux reports /proc, sysfs and cgroup files as empty (or as a page) although they hold data: a file whose
// size says 0 is read up to this much, and archived with what it gave if that was less, as upstream does.
const PSEUDO_FILE_PROBE = 4096;

/** probeEmpty reads a zero-size file's real content, or undefined to archive it as empty. */
async function probeEmpty(path: string): Promise<Buffer | undefined> {
  const fh = await open(path, 'r');
  try {
    const buf = Buffer.alloc(PSEUDO_FILE_PROBE);
    const { bytesRead } = await fh.read(buf, 0, buf.length, 0);
    // nothing: empty for real; a full probe: bigger than a pseudo file should be, so left empty as upstream
    return bytesRead > 0 && bytesRead < buf.length ? buf.subarray(0, bytesRead) : undefined;
  } catch (e) {
    // some pseudo files refuse read() (EINVAL): archived empty, as upstream
    if ((e as NodeJS.ErrnoException).code === 'EINVAL') return undefined;
    throw e;
  } finally {
    await fh.close();
  }
}

/** tarStream yields the tar archive of `root` (the root directory itself is not an entry, as upstream). */
export async function* tarStream(
  root: string,
  skipped: string[],
  signal?: AbortSignal,
): AsyncGenerator<Buffer> {
  for await (const item of walk(root, { skipRoot: true, ...(signal ? { signal } : {}) })) {
    if (item.error || !item.stat) {
      skipped.push(`skipping "${item.fullPath}": ${item.error?.message ?? 'unreadable'}`);
      continue;
    }
    const entry = tarEntryOf(item.relPath, item.stat, item.link);
    if (!entry) {
      skipped.push(`skipping "${item.fullPath}": not supported by tar`);
      continue;
    }
    if (entry.type === 'file' && entry.size === 0) {
      let content: Buffer | undefined;
      try {
        content = await probeEmpty(item.fullPath);
      } catch (e) {
        skipped.push(`skipping "${item.fullPath}": ${e instanceof Error ? e.message : String(e)}`);
        continue;
      }
      yield tarHeader(content ? { ...entry, size: content.length } : entry);
      if (content) yield* [content, tarPadding(content.length)];
      continue;
    }
    // open before the header goes out, so an unreadable file is skipped instead of leaving a hole
    let data: AsyncGenerator<Buffer> | undefined;
    if (entry.size > 0) {
      try {
        data = fileData(item.fullPath, entry.size, signal);
        const first = await data.next();
        yield tarHeader(entry);
        if (!first.done) yield first.value;
      } catch (e) {
        skipped.push(`skipping "${item.fullPath}": ${e instanceof Error ? e.message : String(e)}`);
        continue;
      }
      yield* data;
      yield tarPadding(entry.size);
    } else {
      yield tarHeader(entry);
    }
  }
  yield TAR_END;
}

export interface TarGzOptions {
  readonly signal?: AbortSignal;
}

/**
 * writeTarGz sends the gzip'd tar of `root` to `sink` chunk by chunk, waiting for each send, and resolves
 * with the entries it had to skip. A missing root rejects with FsError('not-found') before anything is sent.
 */
export async function writeTarGz(
  root: string,
  sink: (chunk: Buffer) => Promise<void>,
  opts: TarGzOptions = {},
): Promise<string[]> {
  const skipped: string[] = [];
  const tar = tarStream(root, skipped, opts.signal);
  // pull the first piece here so that a missing root fails the call instead of producing an empty archive
  const first = await tar.next();
  async function* all() {
    if (!first.done) yield first.value;
    yield* tar;
  }
  await pipeline(
    Readable.from(all(), { objectMode: false }),
    createGzip(),
    async (gz: AsyncIterable<Buffer>) => {
      for await (const chunk of gz) await sink(chunk);
    },
    opts.signal ? { signal: opts.signal } : {},
  );
  return skipped;
}
