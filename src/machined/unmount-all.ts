// Unmount in reverse mount order, retrying mounts that are still busy (processes may be dying).
import { setTimeout as delay } from 'node:timers/promises';
import { isSysError } from '../sys/errno.js';
import { umount } from '../sys/mount.js';
import { type MountInfo, readMountInfo } from '../sys/mountinfo.js';

export interface UnmountAllOptions {
  /** which mounts to take down; default: block-device-backed mounts other than / */
  filter?: (m: MountInfo) => boolean;
  /** passes over the remaining mounts before giving up */
  attempts?: number;
  retryDelayMs?: number;
  log?: (line: string) => void;
  signal?: AbortSignal;
}

/** overlayUpper is a writable overlay's upper directory, where its writes land; undefined otherwise. */
export const overlayUpper = (m: Partial<Pick<MountInfo, 'fstype' | 'superOptions'>>): string | undefined =>
  m.fstype === 'overlay' ? /(?:^|,)upperdir=([^,]+)/.exec(m.superOptions ?? '')?.[1] : undefined;

/**
 * blockBacked: data lives on a device, so an unclean unmount can lose it. The root stays. A writable
 * overlay counts: it holds its upper directory's filesystem (EPHEMERAL) open until it goes first.
 */
export const blockBacked = (m: MountInfo): boolean =>
  m.mountPoint !== '/' && (m.source.startsWith('/dev/') || overlayUpper(m) !== undefined);

/** unmountAll returns the mount points it could not unmount. */
export async function unmountAll(opts: UnmountAllOptions = {}): Promise<string[]> {
  const filter = opts.filter ?? blockBacked;
  const attempts = opts.attempts ?? 10;
  let failed: string[] = [];
  for (let attempt = 1; attempt <= attempts; attempt++) {
    failed = [];
    // children are listed after their parents, so reverse order unmounts leaves first
    for (const m of readMountInfo().filter(filter).reverse()) {
      try {
        umount(m.mountPoint);
        opts.log?.(`unmounted ${m.mountPoint}`);
      } catch (e) {
        if (isSysError(e, 'EINVAL', 'ENOENT')) continue; // already gone with a parent
        failed.push(m.mountPoint);
        if (attempt === attempts) opts.log?.(`unmount ${m.mountPoint}: ${(e as Error).message}`);
      }
    }
    if (failed.length === 0) return [];
    if (attempt < attempts)
      await delay(opts.retryDelayMs ?? 1_000, undefined, opts.signal ? { signal: opts.signal } : {});
  }
  return failed;
}
