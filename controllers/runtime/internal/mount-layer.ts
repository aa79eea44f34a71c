// Mounting a layer (components, Kubernetes) from where it is kept: the boot medium (ISO 9660) or a boot
// partition of the installed disk (EFI's vfat, BOOT's xfs), read-only, then its squashfs file through a
// loop device. Each step is skipped when it is already done, so a controller that runs again, a second
// layer from the same partition, or a medium install-node mounted elsewhere too changes nothing; a
// partition this mount brought up that turns out not to hold the layer is let go.
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { LayerName } from '../../../src/install/components.js';
import { attachLoop } from '../../../src/sys/loop-attach.js';
import { MS, mount, umount } from '../../../src/sys/mount.js';
import { readMountInfo } from '../../../src/sys/mountinfo.js';

export const PACKAGES_FILE = 'usr/share/keel/packages.txt';

export interface LayerMount {
  /** where the boot medium is mounted */
  readonly mediumDir: string;
  /** where the installed disk's partition that keeps the layers is mounted */
  readonly diskDir: string;
  /** where each layer's tree appears */
  readonly roots: Readonly<Record<LayerName, string>>;
}

/** LayerSource is a file on a filesystem: the medium's /keel/<layer>.sqsh, or a partition's layer. */
export interface LayerSource {
  readonly device: string;
  readonly fstype: 'iso9660' | 'vfat' | 'xfs';
  /** the layer's path on it, relative */
  readonly file: string;
  /** where the filesystem is mounted */
  readonly dir: string;
}

const mounted = (dir: string) => readMountInfo().some((m) => m.mountPoint === dir);

/**
 * mountLayer mounts the source's filesystem and the layer on it; it returns the layer's packages.txt, or
 * undefined when the filesystem holds no such file (then a disk's partition is unmounted again; a medium
 * stays, as it always did).
 */
export function mountLayer(src: LayerSource, root: string): string | undefined {
  if (!mounted(root)) {
    const ours = !mounted(src.dir);
    if (ours) {
      mkdirSync(src.dir, { recursive: true, mode: 0o755 });
      mount(src.device, src.dir, src.fstype, { flags: MS.RDONLY | MS.NOSUID | MS.NODEV });
    }
    const file = join(src.dir, src.file);
    if (!existsSync(file)) {
      if (ours && src.fstype !== 'iso9660') umount(src.dir);
      return undefined;
    }
    const loop = attachLoop(file);
    try {
      mkdirSync(root, { recursive: true, mode: 0o755 });
      mount(loop.device, root, 'squashfs', { flags: MS.RDONLY | MS.NODEV });
    } finally {
      loop.release();
    }
  }
  return readFileSync(join(root, PACKAGES_FILE), 'utf8');
}
