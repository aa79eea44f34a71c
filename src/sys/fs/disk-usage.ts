// Disk usage of a tree, as upstream's DiskUsage computes it: apparent sizes (st_size, as `du -b`), a
// directory's size being its own plus everything below it, entries yielded after their contents.
import type { Stats } from 'node:fs';
import { lstat, readdir, realpath } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { fsErrorOf } from './errors.js';

export interface UsageEntry {
  readonly fullPath: string;
  /** '.' for a directory root, the base name for a file root, otherwise relative to the root */
  readonly relPath: string;
  readonly size: number;
  /** 0 for the root */
  readonly depth: number;
  readonly isDir: boolean;
  readonly error?: string;
}

/** Files whose st_size is not their usage: /proc/kcore reports the address space size. */
const SIZE_LIES = new Set(['/proc/kcore']);

const sizeOf = (path: string, st: Stats) => (SIZE_LIES.has(path) || st.size < 0 ? 0 : st.size);

/**
 * diskUsage walks `root` depth first. A root that cannot be read yields one entry with `error` (upstream
 * reports it in the stream, not as a failed call); so do unreadable entries below it.
 */
export async function* diskUsage(
  root: string,
  opts: { signal?: AbortSignal } = {},
): AsyncGenerator<UsageEntry> {
  let start = root;
  let st: Stats;
  try {
    st = await lstat(start);
    if (st.isSymbolicLink()) {
      start = await realpath(start);
      st = await lstat(start);
    }
  } catch (cause) {
    yield {
      fullPath: root,
      relPath: root,
      size: 0,
      depth: 0,
      isDir: false,
      error: fsErrorOf(root, cause).message,
    };
    return;
  }

  async function* visit(
    path: string,
    rel: string,
    s: Stats,
    depth: number,
  ): AsyncGenerator<UsageEntry, number> {
    opts.signal?.throwIfAborted();
    let size = sizeOf(path, s);
    if (s.isDirectory()) {
      let names: string[] = [];
      try {
        names = (await readdir(path)).sort();
      } catch (cause) {
        yield {
          fullPath: path,
          relPath: rel,
          size: 0,
          depth,
          isDir: true,
          error: fsErrorOf(path, cause).message,
        };
      }
      for (const name of names) {
        const child = join(path, name);
        const childRel = rel === '.' ? name : join(rel, name);
        let cs: Stats;
        try {
          cs = await lstat(child);
        } catch (cause) {
          yield {
            fullPath: child,
            relPath: childRel,
            size: 0,
            depth: depth + 1,
            isDir: false,
            error: fsErrorOf(child, cause).message,
          };
          continue;
        }
        size += yield* visit(child, childRel, cs, depth + 1);
      }
    }
    yield { fullPath: path, relPath: rel, size, depth, isDir: s.isDirectory() };
    return size;
  }

  yield* visit(start, st.isDirectory() ? '.' : basename(start), st, 0);
}
