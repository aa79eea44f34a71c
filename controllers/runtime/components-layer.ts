// runtime.ComponentsLayerController: ComponentsLayer `components` — the components layer (etcd, containerd,
// runc, the CNI plugins) mounted read-only at /run/keel/components, so that etcd and containerd have their
// binaries. Once block discovery has settled (so an installed disk and a boot medium are both known), it
// takes the layer of the running version from the installed disk (keel/components-<version>.sqsh on BOOT
// or EFI: src/install/components.ts), else the one the boot medium carries (/keel/components.sqsh). Mounted
// once per boot; the maintenance boot never waits for it (the initramfs does not carry it).
import {
  BLOCK_NAMESPACE,
  DISCOVERED_VOLUMES_STATUS_ID,
  DiscoveredVolume,
  type DiscoveredVolumeSpec,
  DiscoveredVolumesStatus,
} from '../../resources/block/index.js';
import { COMPONENTS_LAYER_ID, ComponentsLayer } from '../../resources/runtime/index.js';
import { defineController, input, output } from '../../src/cosi/controller/index.js';
import { layerPath } from '../../src/install/components.js';
import { LAYER_ON_MEDIUM, type LayerMount, type LayerSource, mountLayer } from './internal/mount-layer.js';

export const COMPONENTS_LAYER_CONTROLLER = 'runtime.ComponentsLayerController';
/** the volume id of Keel's ISO */
export const BOOT_MEDIUM_LABEL = 'KEEL';
export const DEFAULT_LAYER_MOUNT: LayerMount = {
  mediumDir: '/run/keel/medium',
  diskDir: '/run/keel/boot',
  root: '/run/keel/components',
};

export interface ComponentsLayerOptions {
  /** the version this node runs: it names the layer an installed disk keeps for it */
  readonly version: string;
  readonly at?: LayerMount;
}

export function componentsLayerController(opts: ComponentsLayerOptions) {
  const at = opts.at ?? DEFAULT_LAYER_MOUNT;
  return defineController({
    name: COMPONENTS_LAYER_CONTROLLER,
    inputs: [
      input(DiscoveredVolume, { namespace: BLOCK_NAMESPACE }),
      input(DiscoveredVolumesStatus, { namespace: BLOCK_NAMESPACE, id: DISCOVERED_VOLUMES_STATUS_ID }),
    ],
    outputs: [output(ComponentsLayer, 'exclusive')],
    async run(rt, { signal, logger }) {
      let done = false;
      for await (const _ of rt.events(signal)) {
        if (done) continue;
        const settled = await rt.getOrNull(DiscoveredVolumesStatus, DISCOVERED_VOLUMES_STATUS_ID, {
          namespace: BLOCK_NAMESPACE,
          signal,
        });
        if (!settled?.spec.ready) continue; // an installed disk may not be known yet
        const volumes = await rt.list(DiscoveredVolume, { namespace: BLOCK_NAMESPACE, signal });
        const sources = layerSources(
          volumes.map((v) => v.spec),
          opts.version,
          at,
        );
        if (sources.length === 0) continue; // neither an installed disk nor the medium (yet)
        // a failure (a medium gone bad) is retried with the controller's backoff
        let found: { src: LayerSource; packages: string } | undefined;
        for (const src of sources) {
          const packages = mountLayer(src, at.root);
          if (packages !== undefined) {
            found = { src, packages };
            break;
          }
          logger.info(`${src.device} holds no components layer (/${src.file})`);
        }
        done = true;
        if (!found) continue;
        const { src, packages } = found;
        await rt.modify(
          ComponentsLayer,
          COMPONENTS_LAYER_ID,
          () => ({ root: at.root, source: `${src.device}:/${src.file}`, packages }),
          { signal },
        );
        logger.info('components layer mounted', { root: at.root, source: `${src.device}:/${src.file}` });
        rt.resetBackoff();
      }
    },
  });
}

/**
 * layerSources lists where the layer may be, best first: the installed disk's partition that keeps the
 * layers (BOOT when the disk has one, else EFI; the disk is the one holding META), then the boot medium.
 */
export function layerSources(
  volumes: readonly DiscoveredVolumeSpec[],
  version: string,
  at: LayerMount,
): LayerSource[] {
  const out: LayerSource[] = [];
  const meta = volumes.find((v) => v.partitionLabel === 'META' && v.parentDevPath);
  if (meta) {
    const on = (label: string, fs: string) =>
      volumes.find(
        (v) => v.parentDevPath === meta.parentDevPath && v.partitionLabel === label && v.name === fs,
      );
    const boot = on('BOOT', 'xfs');
    const efi = on('EFI', 'vfat');
    const part = boot ?? efi;
    if (part)
      out.push({
        device: part.devPath,
        fstype: part === boot ? 'xfs' : 'vfat',
        file: layerPath(version),
        dir: at.diskDir,
      });
  }
  const medium = volumes.find((v) => v.name === 'iso9660' && v.label === BOOT_MEDIUM_LABEL);
  if (medium)
    out.push({ device: medium.devPath, fstype: 'iso9660', file: LAYER_ON_MEDIUM, dir: at.mediumDir });
  return out;
}
