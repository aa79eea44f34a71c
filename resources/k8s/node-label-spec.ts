// NodeLabelSpecs.k8s.talos.dev (`k8s`, one per label key): a label Talos wants on the node's Kubernetes Node,
// from machine.nodeLabels and, on a control plane, `node-role.kubernetes.io/control-plane`. NodeApply
// puts them on the Node. Sensitive as upstream's (talosctl reads them with an admin role).
import { defineResource, type ResourceOf } from '../../src/cosi/resource/typed.js';
import { obj, str } from '../network/yaml-read.js';
import { K8S_NAMESPACE } from './namespace.js';

/** NodeLabelSpecSpec is one label, its key also the resource id. */
export interface NodeLabelSpecSpec {
  key: string;
  value: string;
}

export const NodeLabelSpec = defineResource<NodeLabelSpecSpec>({
  type: 'NodeLabelSpecs.k8s.talos.dev',
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
export type NodeLabelSpec = ResourceOf<typeof NodeLabelSpec>;
