// NodeAnnotationSpecs.k8s.talos.dev (`k8s`, one per annotation key): an annotation Talos wants on the node's
// Kubernetes Node, from machine.nodeAnnotations. NodeApply puts them on the Node. Sensitive as upstream's.
import { defineResource, type ResourceOf } from '../../src/cosi/resource/typed.js';
import { obj, str } from '../network/yaml-read.js';
import { K8S_NAMESPACE } from './namespace.js';

/** NodeAnnotationSpecSpec is one annotation, its key also the resource id. */
export interface NodeAnnotationSpecSpec {
  key: string;
  value: string;
}

export const NodeAnnotationSpec = defineResource<NodeAnnotationSpecSpec>({
  type: 'NodeAnnotationSpecs.k8s.talos.dev',
  defaultNamespace: K8S_NAMESPACE,
  sensitivity: 'sensitive',
  printColumns: [{ name: 'Value', jsonPath: '{.value}' }],
  empty: () => ({ key: '', value: '' }),
  copy: (s) => ({ key: s.key, value: s.value }),
  equal: (a, b) => a.key === b.key && a.value === b.value,
  proto: { key: { no: 1, kind: 'string' }, value: { no: 2, kind: 'string' } },
  fromProto: (v) => ({ key: str(v.key), value: str(v.value) }),
  toYAML: (s) => ({ key: s.key, value: s.value }),
  fromYAML: (v) => ({ key: str(obj(v).key), value: str(obj(v).value) }),
});
export type NodeAnnotationSpec = ResourceOf<typeof NodeAnnotationSpec>;
