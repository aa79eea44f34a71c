// NodeTaintSpecs.k8s.talos.dev (`k8s`, one per taint key): a taint Talos wants on the node's Kubernetes Node,
// from machine.nodeTaints and, on a control plane that does not allow scheduling,
// `node-role.kubernetes.io/control-plane:NoSchedule`. NodeApply puts them on the Node. Sensitive as upstream's.
import { defineResource, type ResourceOf } from '../../src/cosi/resource/typed.js';
import { obj, str } from '../network/yaml-read.js';
import { K8S_NAMESPACE } from './namespace.js';

/** NodeTaintSpecSpec is one taint; fields in upstream's order (the effect before the value). */
export interface NodeTaintSpecSpec {
  key: string;
  effect: string;
  value: string;
}

export const NodeTaintSpec = defineResource<NodeTaintSpecSpec>({
  type: 'NodeTaintSpecs.k8s.talos.dev',
  defaultNamespace: K8S_NAMESPACE,
  sensitivity: 'sensitive',
  printColumns: [
    { name: 'Effect', jsonPath: '{.effect}' },
    { name: 'Value', jsonPath: '{.value}' },
  ],
  empty: () => ({ key: '', effect: '', value: '' }),
  copy: (s) => ({ key: s.key, effect: s.effect, value: s.value }),
  equal: (a, b) => a.key === b.key && a.effect === b.effect && a.value === b.value,
  proto: {
    key: { no: 1, kind: 'string' },
    effect: { no: 2, kind: 'string' },
    value: { no: 3, kind: 'string' },
  },
  fromProto: (v) => ({ key: str(v.key), effect: str(v.effect), value: str(v.value) }),
  toYAML: (s) => ({ key: s.key, effect: s.effect, value: s.value }),
  fromYAML: (v) => ({ key: str(obj(v).key), effect: str(obj(v).effect), value: str(obj(v).value) }),
});
export type NodeTaintSpec = ResourceOf<typeof NodeTaintSpec>;
