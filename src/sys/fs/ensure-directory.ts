// ensureDirectory: a directory a service writes into, made on the way if missing and then given its mode and
// owner every time, so a directory left by an earlier version or another user is put right too.
import { chmodSync, chownSync, mkdirSync } from 'node:fs';

export interface EnsureDirectoryOptions {
  readonly mode: number;
  /** the owner (default: left as it is) */
  readonly owner?: { readonly uid: number; readonly gid: number };
}

export function ensureDirectory(path: string, opts: EnsureDirectoryOptions): void {
  mkdirSync(path, { recursive: true, mode: opts.mode });
  // mkdir's mode passes through the umask, and an existing directory keeps whatever it had
  chmodSync(path, opts.mode);
  if (opts.owner) chownSync(path, opts.owner.uid, opts.owner.gid);
}
