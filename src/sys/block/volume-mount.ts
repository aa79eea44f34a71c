// Mounting a volume's filesystem at a directory and taking it down again, or making a directory volume's
// directory: the mechanism under the block mount controller. The target is made (with its mode and owner)
// when missing; mounting what is already mounted there is a no-op, so a controller pass after a restart
// converges instead of stacking mounts.
import { chmodSync, chownSync, existsSync, mkdirSync, statSync } from 'node:fs';
import { isSysError } from '../errno.js';
import { MNT, MS, mount, umount } from '../mount.js';
import { readMountInfo } from '../mountinfo.js';

export interface VolumeMount {
  /** the block device (or mapped device) holding the filesystem */
  readonly source: string;
  readonly target: string;
  /** xfs, vfat, ext4 … as the kernel names them */
  readonly fstype: string;
  readonly readOnly: boolean;
  /** the target directory's mode when made; 0 keeps 0755 */
  readonly mode?: number;
  readonly uid?: number;
  readonly gid?: number;
}

/** mountedAt tells what is mounted at `target`, if anything (the last mount stacked there). */
export function mountedAt(
  target: string,
): { readonly source: string; readonly readOnly: boolean } | undefined {
  const m = readMountInfo()
    .filter((x) => x.mountPoint === target)
    .at(-1);
  return m ? { source: m.source, readOnly: m.options.split(',').includes('ro') } : undefined;
}

/** mountVolume mounts `v.source` at `v.target` unless that very source is mounted there already. */
export function mountVolume(v: VolumeMount): 'mounted' | 'already' {
  if (!existsSync(v.target)) {
    mkdirSync(v.target, { recursive: true, mode: v.mode || 0o755 });
    if (v.mode) chmodSync(v.target, v.mode);
  }
  const there = mountedAt(v.target);
  if (there && there.source === v.source) return 'already';
  mount(v.source, v.target, v.fstype, { flags: MS.NOSUID | MS.NODEV | (v.readOnly ? MS.RDONLY : 0) });
  // the filesystem's root takes the volume's owner and mode, as upstream's mount options ask
  if (!v.readOnly && (v.uid !== undefined || v.gid !== undefined))
    chownSync(v.target, v.uid ?? 0, v.gid ?? 0);
  if (!v.readOnly && v.mode) chmodSync(v.target, v.mode);
  return 'mounted';
}

/**
 * ensureDirectory makes a directory volume: `v.target` with its mode and owner (upstream's directory
 * volumes are a directory in the parent volume, not a mount). Something other than a directory there is
 * an error.
 */
export function ensureDirectory(v: Pick<VolumeMount, 'target' | 'mode' | 'uid' | 'gid'>): void {
  if (existsSync(v.target)) {
    if (!statSync(v.target).isDirectory()) throw new Error(`${v.target} exists and is not a directory`);
  } else mkdirSync(v.target, { recursive: true, mode: v.mode || 0o755 });
  if (v.mode) chmodSync(v.target, v.mode);
  if (v.uid !== undefined || v.gid !== undefined) chownSync(v.target, v.uid ?? 0, v.gid ?? 0);
}

/** unmountVolume takes the mount at `target` down; false when nothing was mounted there. */
export function unmountVolume(target: string, opts: { lazy?: boolean } = {}): boolean {
  if (!mountedAt(target)) return false;
  try {
    umount(target, opts.lazy ? MNT.DETACH : 0);
  } catch (e) {
    if (isSysError(e, 'EINVAL', 'ENOENT')) return false;
    throw e;
  }
  return true;
}
