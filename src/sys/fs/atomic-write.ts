// writeFileAtomic: a crash or a concurrent reader sees the old file or the new one, never a torn one.
import {
  closeSync,
  fchmodSync,
  fchownSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  writeSync,
} from 'node:fs';
import { dirname } from 'node:path';

export interface AtomicWriteOptions {
  /** the file's mode (default 0o600); set explicitly, so the umask does not change it */
  readonly mode?: number;
  /** the mode of directories created on the way (default 0o700) */
  readonly dirMode?: number;
  /** the file's owner, for a service that runs as another user (default: the caller's) */
  readonly owner?: { readonly uid: number; readonly gid: number };
}

/**
 * writeFileAtomic writes a temp file beside the target, fsyncs it, renames it over, and fsyncs the
 * directory (and the parents of any directory it had to create, so a new directory's entry is durable too).
 */
export function writeFileAtomic(
  path: string,
  data: string | Uint8Array,
  opts: AtomicWriteOptions = {},
): void {
  const dir = dirname(path);
  const tmp = `${path}.tmp-${process.pid}`;
  // the topmost directory made here, if any: its own entry lives in its parent
  const created = mkdirSync(dir, { recursive: true, mode: opts.dirMode ?? 0o700 });
  try {
    const fd = openSync(tmp, 'w', opts.mode ?? 0o600);
    try {
      fchmodSync(fd, opts.mode ?? 0o600);
      if (opts.owner) fchownSync(fd, opts.owner.uid, opts.owner.gid);
      writeAll(fd, typeof data === 'string' ? Buffer.from(data) : data);
      // the data is on disk before the name points at it: a crash after the rename cannot show a hole
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, path);
  } catch (e) {
    rmSync(tmp, { force: true });
    throw e;
  }
  fsyncDirectory(dir);
  if (created !== undefined)
    for (let d = dirname(dir); ; d = dirname(d)) {
      fsyncDirectory(d);
      if (d === dirname(created) || d === dirname(d)) break;
    }
}

/** writeAll loops over short writes, which write(2) may return on a regular file too (a signal, a full disk). */
function writeAll(fd: number, data: Uint8Array): void {
  for (let off = 0; off < data.length; ) off += writeSync(fd, data, off, data.length - off);
}

function fsyncDirectory(dir: string): void {
  const dfd = openSync(dir, 'r');
  try {
    fsyncSync(dfd);
  } finally {
    closeSync(dfd);
  }
}

/**
 * writeFileAtomicIfChanged writes as writeFileAtomic unless the file already holds exactly these bytes (a
 * file missing or unreadable counts as changed); it says whether it wrote. A reader watching the file
 * then sees no needless replace.
 */
export function writeFileAtomicIfChanged(
  path: string,
  data: string | Uint8Array,
  opts: AtomicWriteOptions = {},
): boolean {
  if (holds(path, typeof data === 'string' ? Buffer.from(data) : Buffer.from(data))) return false;
  writeFileAtomic(path, data, opts);
  return true;
}

function holds(path: string, want: Buffer): boolean {
  try {
    return want.equals(readFileSync(path));
  } catch {
    return false;
  }
}
