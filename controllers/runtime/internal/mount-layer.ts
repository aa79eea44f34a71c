// Mounting the components layer from the boot medium: the medium read-only, then its squashfs file through
// a loop device. Each step is skipped when it is already done, so a controller that runs again (or a
// medium install-node mounted elsewhere too) changes nothing.
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { attachLoop } from '../../../src/sys/loop-attach.js';
import { MS, mount } from '../../../src/sys/mount.js';
import { readMountInfo } from '../../../src/sys/mountinfo.js';

/** the layer's path on Keel's ISO */
export const LAYER_ON_MEDIUM = 'keel/components.sqsh';
export const PACKAGES_FILE = 'usr/share/keel/packages.txt';

export interface LayerMount {
  /** where the medium is mounted, and where the layer's tree appears */
  readonly mediumDir: string;
  readonly root: string;
}

const mounted = (dir: string) => readMountInfo().some((m) => m.mountPoint === dir);

/**
 * mountLayer mounts `device` (the boot medium) and the layer on it; it returns the layer's packages.txt,
 * or undefined when the medium carries no layer (an ISO built without one).
 */
export function mountLayer(device: string, at: LayerMount): string | undefined {
  if (!mounted(at.root)) {
    if (!mounted(at.mediumDir)) {
      mkdirSync(at.mediumDir, { recursive: true, mode: 0o755 });
      mount(device, at.mediumDir, 'iso9660', { flags: MS.RDONLY | MS.NOSUID | MS.NODEV });
    }
    const file = join(at.mediumDir, LAYER_ON_MEDIUM);
    if (!existsSync(file)) return undefined;
    const loop = attachLoop(file);
    try {
      mkdirSync(at.root, { recursive: true, mode: 0o755 });
      mount(loop.device, at.root, 'squashfs', { flags: MS.RDONLY | MS.NODEV });
    } finally {
      loop.release();
    }
  }
  return readFileSync(join(at.root, PACKAGES_FILE), 'utf8');
}
