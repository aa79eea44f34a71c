// ComponentsLayers.runtime.keel.dev: a layer Keel ships mounted on this node — `components` (etcd,
// containerd, runc, the CNI plugins) and `kubernetes` (the kubelet, pause and the control plane's images):
// where its tree is, where it came from, and what it holds. Keel's own type: upstream pulls these as
// container images or system extensions; Keel ships them in its image.
import { defineResource, type ResourceOf } from '../../src/cosi/resource/typed.js';
import { obj, str } from '../network/yaml-read.js';
import { RUNTIME_NAMESPACE } from './machine-status.js';

export const COMPONENTS_LAYER_ID = 'components';
/** Kubernetes' layer: the kubelet and the images of pause and the control plane */
export const KUBERNETES_LAYER_ID = 'kubernetes';

export interface ComponentsLayerSpec {
  /** the tree the layer is laid out under: `<root>/usr/bin/etcd`, `<root>/usr/bin/kubelet` */
  root: string;
  /** where it was found: the boot medium's device and file, or a directory */
  source: string;
  /** its /usr/share/keel/packages.txt: one line per component and image, with versions and checksums */
  packages: string;
}

export const ComponentsLayer = defineResource<ComponentsLayerSpec>({
  type: 'ComponentsLayers.runtime.keel.dev',
  defaultNamespace: RUNTIME_NAMESPACE,
  printColumns: [
    { name: 'Root', jsonPath: '{.root}' },
    { name: 'Source', jsonPath: '{.source}' },
  ],
  empty: () => ({ root: '', source: '', packages: '' }),
  fromYAML: (v) => {
    const o = obj(v);
    return { root: str(o.root), source: str(o.source), packages: str(o.packages) };
  },
});
export type ComponentsLayer = ResourceOf<typeof ComponentsLayer>;
