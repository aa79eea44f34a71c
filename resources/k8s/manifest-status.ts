// ManifestStatuses.kubernetes.talos.dev (`manifests`, controlplane): the bootstrap manifests applied to the
// cluster, by Manifest id, as upstream's: written once an apply pass over all of them has succeeded.
import { defineResource, type ResourceOf } from '../../src/cosi/resource/typed.js';
import { obj, strs } from '../network/yaml-read.js';
import { K8S_CONTROL_PLANE_NAMESPACE } from './namespace.js';

export const MANIFEST_STATUS_ID = 'manifests';

export interface ManifestStatusSpec {
  manifestsApplied: string[];
}

export const ManifestStatus = defineResource<ManifestStatusSpec>({
  type: 'ManifestStatuses.kubernetes.talos.dev',
  defaultNamespace: K8S_CONTROL_PLANE_NAMESPACE,
  empty: () => ({ manifestsApplied: [] }),
  copy: (s) => ({ manifestsApplied: [...s.manifestsApplied] }),
  equal: (a, b) =>
    a.manifestsApplied.length === b.manifestsApplied.length &&
    a.manifestsApplied.every((x, i) => x === b.manifestsApplied[i]),
  proto: { manifestsApplied: { no: 1, kind: 'string', repeated: true } },
  fromProto: (v) => ({ manifestsApplied: strs(v.manifestsApplied) }),
  fromYAML: (v) => ({ manifestsApplied: strs(obj(v).manifestsApplied) }),
});
export type ManifestStatus = ResourceOf<typeof ManifestStatus>;
