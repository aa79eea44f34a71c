// A gzip'd tar holding one in-memory file: how upstream wraps a generated file (the admin kubeconfig) so
// that talosctl unpacks it with the same code as a Copy.
import { gzipSync } from 'node:zlib';
import { TAR_END, tarHeader, tarPadding } from './tar.js';

export interface InMemoryFile {
  /** the entry's name inside the archive */
  readonly name: string;
  readonly data: Buffer;
  /** permission bits (07777) */
  readonly mode: number;
  /** modification time, unix seconds */
  readonly mtime: number;
}

/** fileTarGz archives one regular file, owned by root, and compresses it. */
export function fileTarGz(file: InMemoryFile): Buffer {
  const header = tarHeader({
    name: file.name,
    type: 'file',
    mode: file.mode,
    uid: 0,
    gid: 0,
    size: file.data.length,
    mtime: file.mtime,
  });
  return gzipSync(Buffer.concat([header, file.data, tarPadding(file.data.length), TAR_END]));
}
