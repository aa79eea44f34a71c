// The components layer mounted as a node mounts it: from the installed disk's BOOT (xfs, on a loop device)
// when it keeps the running version's layer, else from the boot medium; the squashfs file through a loop
// device, read-only. This host's kernel has no ISO 9660 or vfat driver, so the medium is a directory
// mounted where the controller mounts the medium (the controller leaves a mounted medium as it is, as it
// would one install-node mounted); the ISO 9660 and EFI mounts themselves run in the QEMU boot tests.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { componentsLayerController, layerSources } from '../../../controllers/runtime/components-layer.js';
import type { LayerMount } from '../../../controllers/runtime/internal/mount-layer.js';
import {
  BLOCK_NAMESPACE,
  DISCOVERED_VOLUMES_STATUS_ID,
  DiscoveredVolume,
  type DiscoveredVolumeSpec,
  DiscoveredVolumesStatus,
} from '../../../resources/block/index.js';
import { COMPONENTS_LAYER_ID, ComponentsLayer } from '../../../resources/runtime/index.js';
import { Runtime, silentLogger } from '../../../src/cosi/controller/index.js';
import { newInmemState } from '../../../src/cosi/state/inmem/index.js';
import { wrapCore } from '../../../src/cosi/state/wrap.js';
import { assertResource } from '../../../src/cosi/testing/assert-resources.js';
import { MS, mount, umount } from '../../../src/sys/mount.js';
import { readMountInfo } from '../../../src/sys/mountinfo.js';
import { attachLoop, sparseImage } from '../../sys/block/gpt/loop-device.js';
import { requireRoot } from '../../sys/child.js';

let work: string;
const DEVICE = '/dev/sr0';
const VERSION = 'v0.1.0';
const FROM_MEDIUM = 'etcd v3.6.16 go.etcd.io/etcd/server/v3 go1.26 etcd=abc\n';
const FROM_DISK = 'etcd v3.6.16 go.etcd.io/etcd/server/v3 go1.26 etcd=installed\n';

const isMounted = (dir: string) => readMountInfo().some((m) => m.mountPoint === dir);

/** layer makes a squashfs whose packages.txt says `packages`. */
function layer(out: string, packages: string): void {
  const tree = mkdtempSync(join(work, 'tree-'));
  mkdirSync(join(tree, 'usr/share/keel'), { recursive: true });
  writeFileSync(join(tree, 'usr/share/keel/packages.txt'), packages);
  execFileSync('mksquashfs', [tree, out, '-quiet', '-comp', 'zstd', '-all-root', '-noappend']);
}

beforeAll(() => {
  requireRoot('loop devices and mounts');
  work = mkdtempSync(join(tmpdir(), 'keel-layer-'));
  mkdirSync(join(work, 'iso/keel'), { recursive: true });
  layer(join(work, 'iso/keel/components.sqsh'), FROM_MEDIUM);
  mkdirSync(join(work, 'medium'));
  mount(join(work, 'iso'), join(work, 'medium'), null, { flags: MS.BIND });
});

afterAll(() => {
  for (const dir of ['components', 'boot', 'medium'].map((d) => join(work, d)))
    if (isMounted(dir)) umount(dir);
  rmSync(work, { recursive: true, force: true });
});

const volume = (id: string, spec: Partial<DiscoveredVolumeSpec>) =>
  DiscoveredVolume.new(BLOCK_NAMESPACE, id, { ...DiscoveredVolume.codec.empty(), ...spec });

/** bootPartition is an xfs BOOT on a loop device, holding the layer of `version` when given. */
function bootPartition(version?: string): string {
  const img = sparseImage(320 * 2 ** 20);
  execFileSync('mkfs.xfs', ['-q', '-L', 'BOOT', img]);
  const loop = attachLoop(img);
  if (version) {
    const dir = join(work, 'fill');
    mkdirSync(dir, { recursive: true });
    mount(loop.path, dir, 'xfs');
    try {
      mkdirSync(join(dir, 'keel'));
      layer(join(dir, `keel/components-${version}.sqsh`), FROM_DISK);
    } finally {
      umount(dir);
    }
  }
  return loop.path;
}

/** runLayer runs the controller on `volumes` (discovery settled) until ComponentsLayer passes `check`. */
async function runLayer(volumes: DiscoveredVolume[], check: (spec: ComponentsLayer['spec']) => void) {
  const state = wrapCore(newInmemState());
  const runtime = new Runtime(state, { logger: silentLogger });
  const at: LayerMount = {
    mediumDir: join(work, 'medium'),
    diskDir: join(work, 'boot'),
    root: join(work, 'components'),
  };
  runtime.register(componentsLayerController({ version: VERSION, at }));
  const stop = new AbortController();
  const run = runtime.run({ signal: stop.signal });
  onTestFinished(async () => {
    stop.abort();
    await run;
    for (const dir of [at.root, at.diskDir]) if (isMounted(dir)) umount(dir);
  });
  for (const v of volumes) await state.create(v);
  // nothing is chosen before discovery settles: an installed disk may still be coming
  await new Promise((r) => setTimeout(r, 300));
  expect(isMounted(at.root)).toBe(false);
  await state.create(
    DiscoveredVolumesStatus.new(BLOCK_NAMESPACE, DISCOVERED_VOLUMES_STATUS_ID, { ready: true }),
  );
  await assertResource(state, ComponentsLayer, COMPONENTS_LAYER_ID, (r) => check(r.spec), {
    signal: AbortSignal.timeout(20_000),
  });
  const mounted = readMountInfo().find((m) => m.mountPoint === at.root);
  expect(mounted?.fstype).toBe('squashfs');
  expect(mounted?.options).toMatch(/(^|,)ro(,|$)/);
  // the squashfs came through a loop device, which goes with the mount (autoclear)
  expect(mounted?.source).toMatch(/^\/dev\/loop\d+$/);
  return at;
}

const medium = () => volume('sr0', { name: 'iso9660', label: 'KEEL', devPath: DEVICE });
const installed = (boot: string) => [
  volume('vda4', { partitionLabel: 'META', devPath: '/dev/vda4', parentDevPath: '/dev/vda' }),
  volume('vda3', { name: 'xfs', partitionLabel: 'BOOT', devPath: boot, parentDevPath: '/dev/vda' }),
];

describe('runtime.ComponentsLayerController', () => {
  it('mounts the layer from the boot medium once discovery settles, and publishes what it holds', async () => {
    const at = await runLayer([volume('vda1', { name: 'xfs' }), medium()], (spec) =>
      expect(spec).toEqual({
        root: join(work, 'components'),
        source: `${DEVICE}:/keel/components.sqsh`,
        packages: FROM_MEDIUM,
      }),
    );
    expect(readFileSync(join(at.root, 'usr/share/keel/packages.txt'), 'utf8')).toBe(FROM_MEDIUM);
  });

  it("prefers the installed disk's layer of the running version, the medium attached or not", async () => {
    const boot = bootPartition(VERSION);
    const at = await runLayer([...installed(boot), medium()], (spec) =>
      expect(spec).toEqual({
        root: join(work, 'components'),
        source: `${boot}:/keel/components-${VERSION}.sqsh`,
        packages: FROM_DISK,
      }),
    );
    const part = readMountInfo().find((m) => m.mountPoint === at.diskDir);
    expect(part?.fstype).toBe('xfs');
    expect(part?.options).toMatch(/(^|,)ro(,|$)/);
  });

  it('falls back to the medium when the disk keeps no layer of this version, and lets the disk go', async () => {
    const boot = bootPartition('v0.0.9');
    const at = await runLayer([...installed(boot), medium()], (spec) =>
      expect(spec.packages).toBe(FROM_MEDIUM),
    );
    expect(isMounted(at.diskDir)).toBe(false);
  });
});

describe('layerSources', () => {
  const at: LayerMount = { mediumDir: '/m', diskDir: '/d', root: '/r' };
  const spec = (s: Partial<DiscoveredVolumeSpec>) => ({ ...DiscoveredVolume.codec.empty(), ...s });
  const meta = spec({ partitionLabel: 'META', devPath: '/dev/vda4', parentDevPath: '/dev/vda' });
  const efi = spec({ name: 'vfat', partitionLabel: 'EFI', devPath: '/dev/vda1', parentDevPath: '/dev/vda' });
  const boot = spec({ name: 'xfs', partitionLabel: 'BOOT', devPath: '/dev/vda3', parentDevPath: '/dev/vda' });
  const iso = spec({ name: 'iso9660', label: 'KEEL', devPath: '/dev/sr0' });

  it('an sd-boot disk keeps the layer on EFI; one with BOOT (grub, dual) on BOOT; the medium comes last', () => {
    expect(layerSources([meta, efi, iso], 'v1', at)).toEqual([
      { device: '/dev/vda1', fstype: 'vfat', file: 'keel/components-v1.sqsh', dir: '/d' },
      { device: '/dev/sr0', fstype: 'iso9660', file: 'keel/components.sqsh', dir: '/m' },
    ]);
    expect(layerSources([meta, efi, boot], 'v1', at)).toEqual([
      { device: '/dev/vda3', fstype: 'xfs', file: 'keel/components-v1.sqsh', dir: '/d' },
    ]);
  });

  it('a disk without META is not installed: its EFI is no source', () => {
    expect(layerSources([efi, iso], 'v1', at).map((s) => s.device)).toEqual(['/dev/sr0']);
    expect(layerSources([efi], 'v1', at)).toEqual([]);
  });
});
