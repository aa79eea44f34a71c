// NodeIPConfigs.kubernetes.talos.dev (`kubelet`): the subnets the kubelet's node IP is picked from, and
// those it never is (the pod and service ranges, virtual IPs).
import { defineResource, type ResourceOf } from '../../src/cosi/resource/typed.js';
import { obj, strs } from '../network/yaml-read.js';
import { K8S_NAMESPACE } from './namespace.js';

export const KUBELET_ID = 'kubelet';

export interface NodeIPConfigSpec {
  validSubnets: string[];
  excludeSubnets: string[];
}

const same = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((x, i) => x === b[i]);

export const NodeIPConfig = defineResource<NodeIPConfigSpec>({
  type: 'NodeIPConfigs.kubernetes.talos.dev',
  defaultNamespace: K8S_NAMESPACE,
  empty: () => ({ validSubnets: [], excludeSubnets: [] }),
  copy: (s) => ({ validSubnets: [...s.validSubnets], excludeSubnets: [...s.excludeSubnets] }),
  equal: (a, b) => same(a.validSubnets, b.validSubnets) && same(a.excludeSubnets, b.excludeSubnets),
  proto: {
    validSubnets: { no: 1, kind: 'string', repeated: true },
    excludeSubnets: { no: 2, kind: 'string', repeated: true },
  },
  fromProto: (v) => ({ validSubnets: strs(v.validSubnets), excludeSubnets: strs(v.excludeSubnets) }),
  fromYAML: (v) => {
    const o = obj(v);
    return { validSubnets: strs(o.validSubnets), excludeSubnets: strs(o.excludeSubnets) };
  },
});
export type NodeIPConfig = ResourceOf<typeof NodeIPConfig>;
