// A node without a system disk keeps /var in memory: a real tmpfs on a scratch directory (root needed).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { BLOCK_NAMESPACE, registerBlockResources } from '../../../resources/block/index.js';
import { registerDefault, registerNamespace } from '../../../src/cosi/resource/meta/index.js';
import { newInmemState } from '../../../src/cosi/state/inmem/index.js';
import { wrapCore } from '../../../src/cosi/state/wrap.js';
import { ephemeralVolumes, varInMemory } from '../../../src/machined/node/ephemeral-volume.js';
import { umount } from '../../../src/sys/mount.js';
import { readMountInfo } from '../../../src/sys/mountinfo.js';

describe('a node without a system disk', () => {
  it('mounts a tmpfs at /var once, writable, and leaves an existing mount alone', () => {
    const dir = mkdtempSync(join(tmpdir(), 'keel-var-'));
    onTestFinished(() => {
      while (readMountInfo().some((m) => m.mountPoint === dir)) umount(dir);
      rmSync(dir, { recursive: true, force: true });
    });
    expect(varInMemory(dir)).toBe(true);
    const m = readMountInfo().find((i) => i.mountPoint === dir);
    expect(m?.fstype).toBe('tmpfs');
    writeFileSync(join(dir, 'lib'), 'x');
    expect(varInMemory(dir)).toBe(false);
    expect(readMountInfo().filter((i) => i.mountPoint === dir)).toHaveLength(1);
  });

  it("the Boot sequence's EPHEMERAL task asks for /var in memory instead of waiting for a volume, then the overlays", async () => {
    const state = wrapCore(newInmemState());
    await registerDefault(state);
    await registerNamespace(state, BLOCK_NAMESPACE, 'runtime');
    await registerBlockResources(state);
    let asked = 0;
    const lines: string[] = [];
    await ephemeralVolumes(
      state,
      () => ++asked > 0,
      () => ['/etc/cni', '/etc/kubernetes'],
    ).mountEphemeral({
      signal: AbortSignal.timeout(5_000),
      log: (l) => lines.push(l),
    });
    expect(asked).toBe(1);
    expect(lines).toEqual([
      'no system disk: /var is a tmpfs, its contents lost at the next boot',
      'overlays mounted: /etc/cni, /etc/kubernetes',
    ]);
  });
});
