// statfs(2) sizes of a mounted filesystem, in bytes, as `df` and upstream's Mounts compute them.
import { stat, statfs } from 'node:fs/promises';
import { fsErrorOf } from './errors.js';

export interface FsSizes {
  /** f_bsize × f_blocks */
  readonly size: bigint;
  /** f_bsize × f_bavail: what an unprivileged user may still write */
  readonly available: bigint;
}

export async function statfsSizes(path: string): Promise<FsSizes> {
  try {
    const s = await statfs(path, { bigint: true });
    return { size: s.bsize * s.blocks, available: s.bsize * s.bavail };
  } catch (cause) {
    throw fsErrorOf(path, cause);
  }
}

/**
 * statfsDirectory is statfsSizes for a mount point, or undefined when the path is not a directory (a file
 * bind-mounted over another file), which upstream leaves out of the mount list.
 */
export async function statfsDirectory(path: string): Promise<FsSizes | undefined> {
  try {
    if (!(await stat(path)).isDirectory()) return undefined;
  } catch (cause) {
    throw fsErrorOf(path, cause);
  }
  return statfsSizes(path);
}
