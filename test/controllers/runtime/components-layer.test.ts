// The layers (components, Kubernetes) mounted as a node mounts them: each from the installed disk's BOOT
// (xfs, on a loop device) when it keeps the running version's layer, else from the boot medium; the
// squashfs file through a loop device, read-only. This host's kernel has no ISO 9660 or vfat driver, so
// the medium is a directory mounted where the controller mounts the medium (the controller leaves a
// mounted medium as it is, as it would one install-node mounted); the ISO 9660 and EFI mounts themselves
// run in the QEMU boot tests.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
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
import {
  COMPONENTS_LAYER_ID,
  ComponentsLayer,
  KUBERNETES_LAYER_ID,
  RUNTIME_NAMESPACE,
} from '../../../resources/runtime/index.js';
import { Runtime, silentLogger } from '../../../src/cosi/controller/index.js';
import { newInmemState } from '../../../src/cosi/state/inmem/index.js';
import type { State } from '../../../src/cosi/state/state.js';
import { wrapCore } from '../../../src/cosi/state/wrap.js';
import { assertResource } from '../../../src/cosi/testing/assert-resources.js';
import type { LayerName } from '../../../src/install/components.js';
import { MS, mount, umount } from '../../../src/sys/mount.js';
import { readMountInfo } from '../../../src/sys/mountinfo.js';
import { attachLoop, sparseImage } from '../../sys/block/gpt/loop-device.js';
import { requireRoot } from '../../sys/child.js';

let work: string;
const DEVICE = '/dev/sr0';
const VERSION = 'v0.1.0';
/** what each layer's packages.txt says, on the medium and on the disk */
const PACKAGES = {
  components: {
    medium: 'etcd v3.6.16 go.etcd.io/etcd/server/v3 go1.26 etcd=abc\n',
    disk: 'etcd v3.6.16 go.etcd.io/etcd/server/v3 go1.26 etcd=installed\n',
  },
  kubernetes: {
    medium: 'kubernetes v1.34.4 go=go1.26 modules=k8s.io/kubernetes /usr/bin/kubelet=abc\n',
    disk: 'kubernetes v1.34.4 go=go1.26 modules=k8s.io/kubernetes /usr/bin/kubelet=installed\n',
  },
} as const;
const ID: Record<LayerName, string> = { components: COMPONENTS_LAYER_ID, kubernetes: KUBERNETES_LAYER_ID };

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
  layer(join(work, 'iso/keel/components.sqsh'), PACKAGES.components.medium);
  layer(join(work, 'iso/keel/kubernetes.sqsh'), PACKAGES.kubernetes.medium);
  mkdirSync(join(work, 'medium'));
  mount(join(work, 'iso'), join(work, 'medium'), null, { flags: MS.BIND });
});

afterAll(() => {
  for (const dir of ['components', 'kubernetes', 'boot', 'medium'].map((d) => join(work, d)))
    if (isMounted(dir)) umount(dir);
  rmSync(work, { recursive: true, force: true });
});

const volume = (id: string, spec: Partial<DiscoveredVolumeSpec>) =>
  DiscoveredVolume.new(BLOCK_NAMESPACE, id, { ...DiscoveredVolume.codec.empty(), ...spec });

/** bootPartition is an xfs BOOT on a loop device, holding the given layers of `version`. */
function bootPartition(version: string, layers: readonly LayerName[]): string {
  const img = sparseImage(320 * 2 ** 20);
  execFileSync('mkfs.xfs', ['-q', '-L', 'BOOT', img]);
  const loop = attachLoop(img);
  if (layers.length) {
    const dir = join(work, 'fill');
    mkdirSync(dir, { recursive: true });
    mount(loop.path, dir, 'xfs');
    try {
      mkdirSync(join(dir, 'keel'));
      for (const l of layers) layer(join(dir, `keel/${l}-${version}.sqsh`), PACKAGES[l].disk);
    } finally {
      umount(dir);
    }
  }
  return loop.path;
}

type Spec = ComponentsLayer['spec'];

/**
 * runLayer runs the controller on `volumes` (discovery settled) until each ComponentsLayer `expect` names
 * passes its check; each is mounted read-only from a loop device.
 */
async function runLayer(
  volumes: DiscoveredVolume[],
  expected: Partial<Record<LayerName, (spec: Spec) => void>>,
): Promise<{ at: LayerMount; state: State }> {
  const state = wrapCore(newInmemState());
  const runtime = new Runtime(state, { logger: silentLogger });
  const at: LayerMount = {
    mediumDir: join(work, 'medium'),
    diskDir: join(work, 'boot'),
    roots: { components: join(work, 'components'), kubernetes: join(work, 'kubernetes') },
  };
  runtime.register(componentsLayerController({ version: VERSION, at }));
  const stop = new AbortController();
  const run = runtime.run({ signal: stop.signal });
  onTestFinished(async () => {
    stop.abort();
    await run;
    for (const dir of [at.roots.components, at.roots.kubernetes, at.diskDir]) if (isMounted(dir)) umount(dir);
  });
  for (const v of volumes) await state.create(v);
  // nothing is chosen before discovery settles: an installed disk may still be coming
  await new Promise((r) => setTimeout(r, 300));
  expect(isMounted(at.roots.components)).toBe(false);
  await state.create(
    DiscoveredVolumesStatus.new(BLOCK_NAMESPACE, DISCOVERED_VOLUMES_STATUS_ID, { ready: true }),
  );
  for (const [l, check] of Object.entries(expected) as [LayerName, (spec: Spec) => void][]) {
    await assertResource(state, ComponentsLayer, ID[l], (r) => check(r.spec), {
      signal: AbortSignal.timeout(20_000),
    });
    const mounted = readMountInfo().find((m) => m.mountPoint === at.roots[l]);
    expect(mounted?.fstype).toBe('squashfs');
    expect(mounted?.options).toMatch(/(^|,)ro(,|$)/);
    // the squashfs came through a loop device, which goes with the mount (autoclear)
    expect(mounted?.source).toMatch(/^\/dev\/loop\d+$/);
  }
  return { at, state };
}

const medium = () => volume('sr0', { name: 'iso9660', label: 'KEEL', devPath: DEVICE });
const installed = (boot: string) => [
  volume('vda4', { partitionLabel: 'META', devPath: '/dev/vda4', parentDevPath: '/dev/vda' }),
  volume('vda3', { name: 'xfs', partitionLabel: 'BOOT', devPath: boot, parentDevPath: '/dev/vda' }),
];

describe('runtime.ComponentsLayerController', () => {
  it('mounts both layers from the boot medium once discovery settles, and publishes what they hold', async () => {
    const { at } = await runLayer([volume('vda1', { name: 'xfs' }), medium()], {
      components: (spec) =>
        expect(spec).toEqual({
          root: join(work, 'components'),
          source: `${DEVICE}:/keel/components.sqsh`,
          packages: PACKAGES.components.medium,
        }),
      kubernetes: (spec) =>
        expect(spec).toEqual({
          root: join(work, 'kubernetes'),
          source: `${DEVICE}:/keel/kubernetes.sqsh`,
          packages: PACKAGES.kubernetes.medium,
        }),
    });
    expect(readFileSync(join(at.roots.components, 'usr/share/keel/packages.txt'), 'utf8')).toBe(
      PACKAGES.components.medium,
    );
    expect(readFileSync(join(at.roots.kubernetes, 'usr/share/keel/packages.txt'), 'utf8')).toBe(
      PACKAGES.kubernetes.medium,
    );
  });

  it("prefers the installed disk's layers of the running version, the medium attached or not", async () => {
    const boot = bootPartition(VERSION, ['components', 'kubernetes']);
    const { at } = await runLayer([...installed(boot), medium()], {
      components: (spec) =>
        expect(spec).toEqual({
          root: join(work, 'components'),
          source: `${boot}:/keel/components-${VERSION}.sqsh`,
          packages: PACKAGES.components.disk,
        }),
      kubernetes: (spec) =>
        expect(spec).toEqual({
          root: join(work, 'kubernetes'),
          source: `${boot}:/keel/kubernetes-${VERSION}.sqsh`,
          packages: PACKAGES.kubernetes.disk,
        }),
    });
    const part = readMountInfo().find((m) => m.mountPoint === at.diskDir);
    expect(part?.fstype).toBe('xfs');
    expect(part?.options).toMatch(/(^|,)ro(,|$)/);
  });

  it('takes each layer where it is: a disk without Kubernetes’ layer leaves it to the medium', async () => {
    const boot = bootPartition(VERSION, ['components']);
    const { at } = await runLayer([...installed(boot), medium()], {
      components: (spec) => expect(spec.source).toBe(`${boot}:/keel/components-${VERSION}.sqsh`),
      kubernetes: (spec) => expect(spec.source).toBe(`${DEVICE}:/keel/kubernetes.sqsh`),
    });
    expect(isMounted(at.diskDir)).toBe(true); // the components layer is on it
  });

  it('falls back to the medium when the disk keeps no layer of this version, and lets the disk go', async () => {
    const boot = bootPartition('v0.0.9', ['components', 'kubernetes']);
    const { at } = await runLayer([...installed(boot), medium()], {
      components: (spec) => expect(spec.packages).toBe(PACKAGES.components.medium),
      kubernetes: (spec) => expect(spec.packages).toBe(PACKAGES.kubernetes.medium),
    });
    expect(isMounted(at.diskDir)).toBe(false);
  });

  it('boots on from a medium without Kubernetes’ layer: the components alone, no kubernetes resource', async () => {
    const kept = join(work, 'kubernetes.sqsh.away');
    renameSync(join(work, 'iso/keel/kubernetes.sqsh'), kept);
    onTestFinished(() => renameSync(kept, join(work, 'iso/keel/kubernetes.sqsh')));
    const { at, state } = await runLayer([medium()], {
      components: (spec) => expect(spec.packages).toBe(PACKAGES.components.medium),
    });
    // the controller tries the components first and then Kubernetes', once: give it the time for both
    await new Promise((r) => setTimeout(r, 1_000));
    expect(await state.list({ namespace: RUNTIME_NAMESPACE, type: ComponentsLayer.type })).toHaveLength(1);
    expect(isMounted(at.roots.kubernetes)).toBe(false);
  });
});

describe('layerSources', () => {
  const at: LayerMount = {
    mediumDir: '/m',
    diskDir: '/d',
    roots: { components: '/r/c', kubernetes: '/r/k' },
  };
  const spec = (s: Partial<DiscoveredVolumeSpec>) => ({ ...DiscoveredVolume.codec.empty(), ...s });
  const meta = spec({ partitionLabel: 'META', devPath: '/dev/vda4', parentDevPath: '/dev/vda' });
  const efi = spec({ name: 'vfat', partitionLabel: 'EFI', devPath: '/dev/vda1', parentDevPath: '/dev/vda' });
  const boot = spec({ name: 'xfs', partitionLabel: 'BOOT', devPath: '/dev/vda3', parentDevPath: '/dev/vda' });
  const iso = spec({ name: 'iso9660', label: 'KEEL', devPath: '/dev/sr0' });

  it('an sd-boot disk keeps the layers on EFI; one with BOOT (grub, dual) on BOOT; the medium comes last', () => {
    expect(layerSources([meta, efi, iso], 'components', 'v1', at)).toEqual([
      { device: '/dev/vda1', fstype: 'vfat', file: 'keel/components-v1.sqsh', dir: '/d' },
      { device: '/dev/sr0', fstype: 'iso9660', file: 'keel/components.sqsh', dir: '/m' },
    ]);
    expect(layerSources([meta, efi, boot], 'components', 'v1', at)).toEqual([
      { device: '/dev/vda3', fstype: 'xfs', file: 'keel/components-v1.sqsh', dir: '/d' },
    ]);
  });

  it("finds Kubernetes' layer in the same places, under its own name", () => {
    expect(layerSources([meta, efi, iso], 'kubernetes', 'v1', at)).toEqual([
      { device: '/dev/vda1', fstype: 'vfat', file: 'keel/kubernetes-v1.sqsh', dir: '/d' },
      { device: '/dev/sr0', fstype: 'iso9660', file: 'keel/kubernetes.sqsh', dir: '/m' },
    ]);
    expect(layerSources([meta, boot], 'kubernetes', 'v2', at)).toEqual([
      { device: '/dev/vda3', fstype: 'xfs', file: 'keel/kubernetes-v2.sqsh', dir: '/d' },
    ]);
  });

  it('a disk without META is not installed: its EFI is no source', () => {
    expect(layerSources([efi, iso], 'components', 'v1', at).map((s) => s.device)).toEqual(['/dev/sr0']);
    expect(layerSources([efi], 'kubernetes', 'v1', at)).toEqual([]);
  });
});
