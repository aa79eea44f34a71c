// Walking a directory tree as upstream's archiver walker does: lexical order, no symlinks followed (except
// a symlinked root), a depth limit, a type filter, and unreadable entries reported rather than fatal.
import type { Stats } from 'node:fs';
import { lstat, readdir, readlink, realpath } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { fsErrorOf } from './errors.js';

export type WalkType = 'regular' | 'directory' | 'symlink';

export interface WalkEntry {
  readonly fullPath: string;
  /** relative to the root: '.' for a directory root, the base name for a file root */
  readonly relPath: string;
  /** absent when `error` is set */
  readonly stat?: Stats;
  /** a symlink's target */
  readonly link: string;
  readonly error?: Error;
}

export interface WalkOptions {
  /** directories deeper than this are listed but not entered; negative means no limit, 0 only the root */
  readonly maxDepth?: number;
  /** only entries of these types are yielded (directories are still entered); empty means all */
  readonly types?: readonly WalkType[];
  /** leave out a directory root itself */
  readonly skipRoot?: boolean;
  readonly signal?: AbortSignal;
}

/** typeOf classifies an lstat result for the type filter; sockets and devices are none of the three. */
export function typeOf(st: Stats): WalkType | undefined {
  if (st.isFile()) return 'regular';
  if (st.isDirectory()) return 'directory';
  if (st.isSymbolicLink()) return 'symlink';
  return undefined;
}

/** normalizeRoot makes a request path absolute without a trailing slash, as upstream's List does. */
export function normalizeRoot(path: string): string {
  const abs = path.startsWith('/') ? path : `/${path}`;
  const trimmed = abs.replace(/\/+$/, '');
  return trimmed === '' ? '/' : trimmed;
}

/**
 * walk yields the root and everything below it. A missing root throws FsError('not-found'); errors below the
 * root become entries with `error`, so one unreadable directory does not hide its siblings.
 */
export async function* walk(root: string, opts: WalkOptions = {}): AsyncGenerator<WalkEntry> {
  const maxDepth = opts.maxDepth ?? -1;
  const types = new Set(opts.types ?? []);
  let start = root;
  let st: Stats;
  try {
    st = await lstat(start);
    if (st.isSymbolicLink()) {
      start = await realpath(start);
      st = await lstat(start);
    }
  } catch (cause) {
    throw fsErrorOf(root, cause);
  }
  const wanted = (s: Stats) => {
    if (types.size === 0) return true;
    const t = typeOf(s);
    return t !== undefined && types.has(t);
  };

  async function* visit(path: string, rel: string, s: Stats, depth: number): AsyncGenerator<WalkEntry> {
    opts.signal?.throwIfAborted();
    const isRoot = depth === 0;
    if (wanted(s) && !(isRoot && opts.skipRoot && s.isDirectory())) {
      let link = '';
      let error: Error | undefined;
      if (s.isSymbolicLink())
        try {
          link = await readlink(path);
        } catch (cause) {
          error = fsErrorOf(path, cause);
        }
      yield error
        ? { fullPath: path, relPath: rel, link, error }
        : { fullPath: path, relPath: rel, stat: s, link };
    }
    if (!s.isDirectory() || (!isRoot && maxDepth >= 0 && depth >= maxDepth)) return;
    let names: string[];
    try {
      names = (await readdir(path)).sort();
    } catch (cause) {
      yield { fullPath: path, relPath: rel, link: '', error: fsErrorOf(path, cause) };
      return;
    }
    for (const name of names) {
      const child = join(path, name);
      const childRel = rel === '.' ? name : join(rel, name);
      let cs: Stats;
      try {
        cs = await lstat(child);
      } catch (cause) {
        yield { fullPath: child, relPath: childRel, link: '', error: fsErrorOf(child, cause) };
        continue;
      }
      yield* visit(child, childRel, cs, depth + 1);
    }
  }

  yield* visit(start, st.isDirectory() ? '.' : basename(start), st, 0);
}
