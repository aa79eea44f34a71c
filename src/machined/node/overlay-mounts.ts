// The writable overlays on the read-only root, as upstream's overlay mount points: what the network
// plugin writes to /etc/cni (CNI configs in net.d, read by containerd's CRI plugin) and what the kubelet
// writes to /etc/kubernetes live on /var, each an overlayfs whose lower layer is the image's directory.
// Mounted once /var is (EPHEMERAL or its tmpfs), before any service that needs them starts.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { mountNew } from '../../sys/mount.js';
import { readMountInfo } from '../../sys/mountinfo.js';

/** OVERLAY_TARGETS are the root's directories made writable, each backed by /var/system/overlays. */
export const OVERLAY_TARGETS = ['/etc/cni', '/etc/kubernetes'] as const;

export interface OverlayMountsOptions {
  /** the root the targets are under ('/' on a node; a scratch directory in a test) */
  readonly root?: string;
  /** where the upper and work directories live (/var/system/overlays on a node) */
  readonly store?: string;
  readonly targets?: readonly string[];
}

/** overlayName is the store's name for a target, as upstream's: /etc/cni → etc-cni. */
export function overlayName(target: string): string {
  return target.replace(/^\/+/, '').replaceAll('/', '-');
}

/**
 * mountOverlays mounts each target's overlay and returns the targets it mounted; a target with its
 * overlay on already (a sequence re-run) is left alone.
 */
export function mountOverlays(opts: OverlayMountsOptions = {}): string[] {
  const root = opts.root ?? '/';
  const store = opts.store ?? join(root, 'var/system/overlays');
  // the topmost mount at each point (mountinfo lists mounts in the order they were made)
  const top = new Map(readMountInfo().map((m) => [m.mountPoint, m.fstype] as const));
  const done: string[] = [];
  for (const target of opts.targets ?? OVERLAY_TARGETS) {
    const at = join(root, target);
    if (top.get(at) === 'overlay') continue;
    const name = overlayName(target);
    const upper = join(store, `${name}-diff`);
    const work = join(store, `${name}-workdir`);
    mkdirSync(upper, { recursive: true, mode: 0o755 });
    mkdirSync(work, { recursive: true, mode: 0o755 });
    mountNew('overlay', at, { lowerdir: at, upperdir: upper, workdir: work });
    done.push(target);
  }
  return done;
}
