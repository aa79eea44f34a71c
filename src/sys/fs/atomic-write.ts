// writeFileAtomic: a crash or a concurrent reader sees the old file or the new one, never a torn one.
import {
  closeSync,
  fchmodSync,
  fsyncSync,
  mkdirSync,
  openSync,
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
}

/** writeFileAtomic writes a temp file beside the target, fsyncs it, renames it over, and fsyncs the directory. */
export function writeFileAtomic(
  path: string,
  data: string | Uint8Array,
  opts: AtomicWriteOptions = {},
): void {
  const dir = dirname(path);
  const tmp = `${path}.tmp-${process.pid}`;
  mkdirSync(dir, { recursive: true, mode: opts.dirMode ?? 0o700 });
  try {
    const fd = openSync(tmp, 'w', opts.mode ?? 0o600);
    try {
      fchmodSync(fd, opts.mode ?? 0o600);
      writeSync(fd, typeof data === 'string' ? Buffer.from(data) : data);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, path);
  } catch (e) {
    rmSync(tmp, { force: true });
    throw e;
  }
  const dfd = openSync(dir, 'r');
  try {
    fsyncSync(dfd);
  } finally {
    closeSync(dfd);
  }
}
