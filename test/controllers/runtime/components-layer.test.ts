// The components layer mounted from its boot medium as a node mounts it: the squashfs file through a loop
// device, read-only. This host's kernel has no ISO 9660 driver, so the medium is a directory mounted
// where the controller mounts the medium (the controller leaves a mounted medium as it is, as it would one
// install-node mounted); the ISO 9660 mount itself runs in the QEMU boot tests, on Keel's own kernel.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { componentsLayerController } from '../../../controllers/runtime/components-layer.js';
import { BLOCK_NAMESPACE, DiscoveredVolume } from '../../../resources/block/index.js';
import { COMPONENTS_LAYER_ID, ComponentsLayer } from '../../../resources/runtime/index.js';
import { Runtime, silentLogger } from '../../../src/cosi/controller/index.js';
import { newInmemState } from '../../../src/cosi/state/inmem/index.js';
import { wrapCore } from '../../../src/cosi/state/wrap.js';
import { assertResource } from '../../../src/cosi/testing/assert-resources.js';
import { MS, mount, umount } from '../../../src/sys/mount.js';
import { readMountInfo } from '../../../src/sys/mountinfo.js';
import { requireRoot } from '../../sys/child.js';

let work: string;
const DEVICE = '/dev/sr0';
const PACKAGES = 'etcd v3.6.16 go.etcd.io/etcd/server/v3 go1.26 etcd=abc\n';

beforeAll(() => {
  requireRoot('loop devices and mounts');
  work = mkdtempSync(join(tmpdir(), 'keel-layer-'));
  const tree = join(work, 'tree');
  mkdirSync(join(tree, 'usr/share/keel'), { recursive: true });
  writeFileSync(join(tree, 'usr/share/keel/packages.txt'), PACKAGES);
  mkdirSync(join(work, 'iso/keel'), { recursive: true });
  execFileSync('mksquashfs', [
    tree,
    join(work, 'iso/keel/components.sqsh'),
    '-quiet',
    '-comp',
    'zstd',
    '-all-root',
  ]);
  mkdirSync(join(work, 'medium'));
  mount(join(work, 'iso'), join(work, 'medium'), null, { flags: MS.BIND });
});

afterAll(() => {
  const at = (dir: string) => readMountInfo().some((m) => m.mountPoint === dir);
  for (const dir of [join(work, 'components'), join(work, 'medium')]) if (at(dir)) umount(dir);
  rmSync(work, { recursive: true, force: true });
});

describe('runtime.ComponentsLayerController', () => {
  it('mounts the layer from the boot medium once discovery finds it, and publishes what it holds', async () => {
    const state = wrapCore(newInmemState());
    const runtime = new Runtime(state, { logger: silentLogger });
    const at = { mediumDir: join(work, 'medium'), root: join(work, 'components') };
    runtime.register(componentsLayerController(at));
    const stop = new AbortController();
    const run = runtime.run({ signal: stop.signal });
    try {
      // an unrelated volume first: nothing happens
      await state.create(
        DiscoveredVolume.new(BLOCK_NAMESPACE, 'vda1', { ...DiscoveredVolume.codec.empty(), name: 'xfs' }),
      );
      await state.create(
        DiscoveredVolume.new(BLOCK_NAMESPACE, 'sr0', {
          ...DiscoveredVolume.codec.empty(),
          name: 'iso9660',
          label: 'KEEL',
          devPath: DEVICE,
        }),
      );
      await assertResource(
        state,
        ComponentsLayer,
        COMPONENTS_LAYER_ID,
        (r) =>
          expect(r.spec).toEqual({
            root: at.root,
            source: `${DEVICE}:/keel/components.sqsh`,
            packages: PACKAGES,
          }),
        { signal: AbortSignal.timeout(20_000) },
      );
      expect(readFileSync(join(at.root, 'usr/share/keel/packages.txt'), 'utf8')).toBe(PACKAGES);
      const layer = readMountInfo().find((m) => m.mountPoint === at.root);
      expect(layer?.fstype).toBe('squashfs');
      expect(layer?.options).toMatch(/(^|,)ro(,|$)/);
      // the squashfs came through a loop device, which goes with the mount (autoclear)
      expect(layer?.source).toMatch(/^\/dev\/loop\d+$/);
    } finally {
      stop.abort();
      await run;
    }
  });
});
