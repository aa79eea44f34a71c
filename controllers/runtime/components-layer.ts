// runtime.ComponentsLayerController: the ComponentsLayers `components` (etcd, containerd, runc, the CNI
// plugins) and `kubernetes` (the kubelet, pause and the control plane's images) — each layer mounted
// read-only at /run/keel/<layer>, so that the services have their binaries and containerd the images.
// Once block discovery has settled (so an installed disk and a boot medium are both known), it takes each
// layer of the running version from the installed disk (keel/<layer>-<version>.sqsh on BOOT or EFI:
// src/install/components.ts), else the one the boot medium carries (/keel/<layer>.sqsh). A layer found
// nowhere gets no resource, and the node boots on without what it holds (a medium built without
// Kubernetes' layer). Mounted once per boot; the maintenance boot never waits for it (the initramfs does
// not carry the layers).
import {
  BLOCK_NAMESPACE,
  DISCOVERED_VOLUMES_STATUS_ID,
  DiscoveredVolume,
  type DiscoveredVolumeSpec,
  DiscoveredVolumesStatus,
} from '../../resources/block/index.js';
import { COMPONENTS_LAYER_ID, ComponentsLayer, KUBERNETES_LAYER_ID } from '../../resources/runtime/index.js';
import { defineController, input, output } from '../../src/cosi/controller/index.js';
import { LAYERS, type LayerName, layerOnMedium, layerPath } from '../../src/install/components.js';
import { type LayerMount, type LayerSource, mountLayer } from './internal/mount-layer.js';

export const COMPONENTS_LAYER_CONTROLLER = 'runtime.ComponentsLayerController';
/** the volume id of Keel's ISO */
export const BOOT_MEDIUM_LABEL = 'KEEL';
export const DEFAULT_LAYER_MOUNT: LayerMount = {
  mediumDir: '/run/keel/medium',
  diskDir: '/run/keel/boot',
  roots: { components: '/run/keel/components', kubernetes: '/run/keel/kubernetes' },
};
/** the ComponentsLayer each layer is published as */
export const LAYER_RESOURCE_IDS: Readonly<Record<LayerName, string>> = {
  components: COMPONENTS_LAYER_ID,
  kubernetes: KUBERNETES_LAYER_ID,
};

export interface ComponentsLayerOptions {
  /** the version this node runs: it names the layers an installed disk keeps for it */
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
        const volumes = (await rt.list(DiscoveredVolume, { namespace: BLOCK_NAMESPACE, signal })).map(
          (v) => v.spec,
        );
        const where = LAYERS.map((layer) => ({
          layer,
          sources: layerSources(volumes, layer, opts.version, at),
        }));
        // neither an installed disk nor the medium (yet); the same places hold every layer
        if (where.every((w) => w.sources.length === 0)) continue;
        // a failure (a medium gone bad) is retried with the controller's backoff; a layer mounted before
        // it is found mounted again, as it is
        for (const { layer, sources } of where) {
          const root = at.roots[layer];
          let found: { src: LayerSource; packages: string } | undefined;
          for (const src of sources) {
            const packages = mountLayer(src, root);
            if (packages !== undefined) {
              found = { src, packages };
              break;
            }
            logger.info(`${src.device} holds no ${layer} layer (/${src.file})`);
          }
          if (!found) {
            logger.info(`no ${layer} layer found: ${LAYER_RESOURCE_IDS[layer]} is not published`);
            continue;
          }
          const source = `${found.src.device}:/${found.src.file}`;
          const packages = found.packages;
          await rt.modify(ComponentsLayer, LAYER_RESOURCE_IDS[layer], () => ({ root, source, packages }), {
            signal,
          });
          logger.info(`${layer} layer mounted`, { root, source });
        }
        done = true;
        rt.resetBackoff();
      }
    },
  });
}

/**
 * layerSources lists where a layer may be, best first: the installed disk's partition that keeps the
 * layers (BOOT when the disk has one, else EFI; the disk is the one holding META), then the boot medium.
 */
export function layerSources(
  volumes: readonly DiscoveredVolumeSpec[],
  layer: LayerName,
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
        file: layerPath(layer, version),
        dir: at.diskDir,
      });
  }
  const medium = volumes.find((v) => v.name === 'iso9660' && v.label === BOOT_MEDIUM_LABEL);
  if (medium)
    out.push({ device: medium.devPath, fstype: 'iso9660', file: layerOnMedium(layer), dir: at.mediumDir });
  return out;
}
