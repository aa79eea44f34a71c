// cri.ImageImportStatusController: an ImageImportStatus per OCI archive of every ComponentsLayer (each
// layer's /usr/share/keel/images/*.tar: the toolbox from the components, pause and the control plane's
// from Kubernetes') — each imported with the components layer's ctr into the namespaces its layer's images
// are for (the components' into `system` and `k8s.io`, Kubernetes' only into the CRI's `k8s.io`: hundreds of
// MB a guest without KVM would otherwise write twice) once the `containerd` service is healthy, unpacked for its snapshotter and under the names the
// archive gives. Once a boot: an archive whose bytes a status already shows imported is not imported again.
// The import makes the namespaces too; its images are pinned, so the kubelet's image GC leaves them be.
// A worker runs no control plane, so it leaves the control plane's archives out (minutes of emulated
// CPU and hundreds of MB of disk it would never use); a node whose role is not known yet takes them all.
import { basename, join } from 'node:path';
import { MACHINE_TYPE_ID, type MachineRole, MachineType } from '../../resources/config/machine-type.js';
import { ImageImportStatus, type ImageImportStatusSpec } from '../../resources/cri/index.js';
import { COMPONENTS_LAYER_ID, ComponentsLayer, KUBERNETES_LAYER_ID } from '../../resources/runtime/index.js';
import { Service } from '../../resources/v1alpha1/index.js';
import { defineController, input, output } from '../../src/cosi/controller/index.js';
import { ctrImport, fileSha256, imageArchives } from '../../src/sys/ctr-import.js';
import { destroyIfPresent } from '../internal/destroy-if-present.js';
import {
  CONTAINERD_SERVICE_ID,
  type ContainerdPaths,
  CRI_NAMESPACE,
  containerdSocket,
  SYSTEM_NAMESPACE,
} from './containerd.js';

export const IMAGE_IMPORT_STATUS_CONTROLLER = 'cri.ImageImportStatusController';
/** where the layer keeps its images' archives */
export const LAYER_IMAGES_DIR = 'usr/share/keel/images';
export const IMPORT_NAMESPACES = [SYSTEM_NAMESPACE, CRI_NAMESPACE] as const;

/** importNamespaces: where a layer's images go; only the kubelet runs Kubernetes' images. */
export const importNamespaces = (layer: string): readonly string[] =>
  layer === KUBERNETES_LAYER_ID ? [CRI_NAMESPACE] : IMPORT_NAMESPACES;
/** the CRI plugin's label for an image the kubelet must never collect */
export const PINNED_LABEL = 'io.cri-containerd.pinned=pinned';

export function imageImportStatusController(paths: ContainerdPaths) {
  return defineController({
    name: IMAGE_IMPORT_STATUS_CONTROLLER,
    inputs: [
      input(ComponentsLayer),
      input(Service, { id: CONTAINERD_SERVICE_ID }),
      input(MachineType, { id: MACHINE_TYPE_ID }),
    ],
    outputs: [output(ImageImportStatus, 'exclusive')],
    async run(rt, { signal, logger }) {
      for await (const _ of rt.events(signal)) {
        const layers = await rt.list(ComponentsLayer, { signal });
        // ctr is the components layer's: Kubernetes' archives wait for it
        const tools = layers.find((l) => l.metadata.id === COMPONENTS_LAYER_ID);
        const containerd = await rt.getOrNull(Service, CONTAINERD_SERVICE_ID, { signal });
        // not yet; what was imported stays imported (and shown) while containerd restarts
        if (!tools || !containerd?.spec.healthy) continue;
        // a status is named for its archive's file, which is unique across the layers: the manifest
        // (images/components.yaml) names each image once, whatever layer ships it
        const role = (await rt.getOrNull(MachineType, MACHINE_TYPE_ID, { signal }))?.spec.type ?? 'unknown';
        const archives: { archive: string; namespaces: readonly string[] }[] = [];
        for (const l of layers)
          for (const archive of await imageArchives(join(l.spec.root, LAYER_IMAGES_DIR)))
            if (runsOn(basename(archive, '.tar'), role))
              archives.push({ archive, namespaces: importNamespaces(l.metadata.id) });
        const shown = new Map(
          (await rt.list(ImageImportStatus, { signal })).map((r) => [r.metadata.id, r.spec]),
        );
        let failed: unknown;
        for (const { archive, namespaces } of importOrder(archives)) {
          const id = basename(archive, '.tar');
          const sha256 = await fileSha256(archive, signal);
          if (imported(shown.get(id), sha256)) continue;
          let next: ImageImportStatusSpec;
          try {
            const images = new Set<string>();
            for (const namespace of namespaces)
              for (const i of await ctrImport({
                ctr: join(tools.spec.root, 'usr/bin/ctr'),
                address: containerdSocket(paths),
                namespace,
                archive,
                labels: [PINNED_LABEL],
                signal,
              }))
                images.add(`${i.name}@${i.digest}`);
            next = {
              archive,
              sha256,
              namespaces: [...namespaces],
              images: [...images].sort(),
              error: '',
            };
            logger.info('images imported', { archive, images: next.images.join(' ') });
          } catch (e) {
            if (signal.aborted) throw e;
            failed ??= e;
            next = { archive, sha256, namespaces: [], images: [], error: (e as Error).message };
          }
          await rt.modify(ImageImportStatus, id, () => next, { signal });
        }
        const ids = new Set(archives.map((a) => basename(a.archive, '.tar')));
        for (const id of shown.keys())
          if (!ids.has(id)) await destroyIfPresent(rt, ImageImportStatus.pointer(id), { signal });
        // the status says why; the runtime's backoff retries
        if (failed) throw new Error('importing the layers’ images', { cause: failed });
        rt.resetBackoff();
      }
    },
  });
}

/** imported: a status shows these very bytes imported without an error. */
export const imported = (status: ImageImportStatusSpec | undefined, sha256: string): boolean =>
  status !== undefined && status.sha256 === sha256 && status.error === '';

/** controlPlaneImage: the archive of a control plane static pod's image */
const controlPlaneImage = (name: string): boolean =>
  /^kube-(apiserver|controller-manager|scheduler)$/.test(name);

/** runsOn: whether a node of `role` may run the archive `name`'s image; a worker runs no control plane. */
export const runsOn = (name: string, role: MachineRole): boolean =>
  role !== 'worker' || !controlPlaneImage(name);

/**
 * importOrder puts first what a control plane waits on: the sandbox image every pod needs, then the
 * control plane's own (under TCG an import takes tens of seconds, and the kubelet cannot start the API
 * server before both are in), then the pod network's (kube-proxy, flannel: the node is not Ready
 * without them); the rest keep their order.
 */
export function importOrder<T extends { archive: string }>(archives: readonly T[]): T[] {
  const rank = (a: T) => {
    const name = basename(a.archive, '.tar');
    if (name === 'pause') return 0;
    if (controlPlaneImage(name)) return 1;
    return name === 'kube-proxy' || name === 'flannel' ? 2 : 3;
  };
  return archives
    .map((a, i) => ({ a, i }))
    .sort((x, y) => rank(x.a) - rank(y.a) || x.i - y.i)
    .map(({ a }) => a);
}
