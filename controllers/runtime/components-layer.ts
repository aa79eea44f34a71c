// runtime.ComponentsLayerController: ComponentsLayer `components` — on a node booted from Keel's ISO, the
// components layer it carries (/keel/components.sqsh) is mounted read-only at /run/keel/components once
// block discovery finds the medium, so that etcd and containerd have their binaries. Mounted once per
// boot; the maintenance boot never waits for it (the initramfs does not carry it).
import { BLOCK_NAMESPACE, DiscoveredVolume } from '../../resources/block/index.js';
import { COMPONENTS_LAYER_ID, ComponentsLayer } from '../../resources/runtime/index.js';
import { defineController, input, output } from '../../src/cosi/controller/index.js';
import { LAYER_ON_MEDIUM, type LayerMount, mountLayer } from './internal/mount-layer.js';

export const COMPONENTS_LAYER_CONTROLLER = 'runtime.ComponentsLayerController';
/** the volume id of Keel's ISO */
export const BOOT_MEDIUM_LABEL = 'KEEL';
export const DEFAULT_LAYER_MOUNT: LayerMount = {
  mediumDir: '/run/keel/medium',
  root: '/run/keel/components',
};

export function componentsLayerController(at: LayerMount = DEFAULT_LAYER_MOUNT) {
  return defineController({
    name: COMPONENTS_LAYER_CONTROLLER,
    inputs: [input(DiscoveredVolume, { namespace: BLOCK_NAMESPACE })],
    outputs: [output(ComponentsLayer, 'exclusive')],
    async run(rt, { signal, logger }) {
      let done = false;
      for await (const _ of rt.events(signal)) {
        if (done) continue;
        const volumes = await rt.list(DiscoveredVolume, { namespace: BLOCK_NAMESPACE, signal });
        const medium = volumes.find((v) => v.spec.name === 'iso9660' && v.spec.label === BOOT_MEDIUM_LABEL);
        if (!medium) continue;
        // a failure (a medium gone bad) is retried with the controller's backoff
        const packages = mountLayer(medium.spec.devPath, at);
        done = true;
        if (packages === undefined) {
          logger.info(`boot medium ${medium.spec.devPath} carries no components layer (/${LAYER_ON_MEDIUM})`);
          continue;
        }
        await rt.modify(
          ComponentsLayer,
          COMPONENTS_LAYER_ID,
          () => ({ root: at.root, source: `${medium.spec.devPath}:/${LAYER_ON_MEDIUM}`, packages }),
          { signal },
        );
        logger.info('components layer mounted', { root: at.root, source: medium.spec.devPath });
        rt.resetBackoff();
      }
    },
  });
}
