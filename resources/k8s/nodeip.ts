// NodeIPs.kubernetes.talos.dev (`kubelet`): the kubelet's node IPs (--node-ip), at most one IPv4 and one
// IPv6 address.
import { defineResource, type ResourceOf } from '../../src/cosi/resource/typed.js';
import { ipMessage, ipsOfMessages, netIP } from '../network/wire.js';
import { obj, strs } from '../network/yaml-read.js';
import { K8S_NAMESPACE } from './namespace.js';

export interface NodeIPSpec {
  addresses: string[];
}

export const NodeIP = defineResource<NodeIPSpec>({
  type: 'NodeIPs.kubernetes.talos.dev',
  defaultNamespace: K8S_NAMESPACE,
  empty: () => ({ addresses: [] }),
  copy: (s) => ({ addresses: [...s.addresses] }),
  equal: (a, b) =>
    a.addresses.length === b.addresses.length && a.addresses.every((x, i) => x === b.addresses[i]),
  proto: { addresses: netIP(1, true) },
  toProto: (s) => ({ addresses: s.addresses.map(ipMessage) }),
  fromProto: (v) => ({ addresses: ipsOfMessages(v.addresses) }),
  toYAML: (s) => ({ addresses: s.addresses }),
  fromYAML: (v) => ({ addresses: strs(obj(v).addresses) }),
});
export type NodeIP = ResourceOf<typeof NodeIP>;
