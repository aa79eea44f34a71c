// The writable overlays on the read-only root: real overlayfs mounts on a scratch root (root needed).
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { mountOverlays, OVERLAY_TARGETS, overlayName } from '../../../src/machined/node/overlay-mounts.js';
import { MS, mount, umount } from '../../../src/sys/mount.js';
import { readMountInfo } from '../../../src/sys/mountinfo.js';

describe('the writable overlays', () => {
  it('names each store directory after its target, as upstream', () => {
    expect(OVERLAY_TARGETS.map(overlayName)).toEqual(['etc-cni', 'etc-kubernetes']);
  });

  it('makes a read-only directory writable on /var, keeps its contents, and mounts once', () => {
    const root = mkdtempSync(join(tmpdir(), 'keel-overlay-'));
    const lower = join(root, 'etc/cni');
    onTestFinished(() => {
      for (const at of [lower, root]) while (readMountInfo().some((m) => m.mountPoint === at)) umount(at);
      rmSync(root, { recursive: true, force: true });
    });
    mkdirSync(join(lower, 'net.d'), { recursive: true });
    writeFileSync(join(lower, 'net.d', 'shipped.conf'), 'from the image');
    // the image's directory read-only, as on the squashfs root
    mount(lower, lower, null, { flags: MS.BIND });
    mount('', lower, null, { flags: MS.BIND | MS.REMOUNT | MS.RDONLY });
    expect(() => writeFileSync(join(lower, 'net.d', 'x'), '')).toThrow(/EROFS/);

    expect(mountOverlays({ root, targets: ['/etc/cni'] })).toEqual(['/etc/cni']);
    writeFileSync(join(lower, 'net.d', '10-flannel.conflist'), '{}');
    expect(readFileSync(join(lower, 'net.d', 'shipped.conf'), 'utf8')).toBe('from the image');
    const upper = join(root, 'var/system/overlays/etc-cni-diff');
    expect(existsSync(join(upper, 'net.d', '10-flannel.conflist'))).toBe(true);
    const m = readMountInfo().filter((i) => i.mountPoint === lower);
    expect(m.at(-1)?.fstype).toBe('overlay');
    expect(m.at(-1)?.superOptions).toContain(`upperdir=${upper}`);

    expect(mountOverlays({ root, targets: ['/etc/cni'] })).toEqual([]);
    expect(readMountInfo().filter((i) => i.mountPoint === lower)).toHaveLength(m.length);
  });
});
