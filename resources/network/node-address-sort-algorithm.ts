// NodeAddressSortAlgorithms.net.talos.dev: how NodeAddressController orders the node's addresses.
import { defineResource, type ResourceOf } from '../../src/cosi/resource/typed.js';
import { AddressSortAlgorithm, AddressSortAlgorithms } from './address-enums.js';
import { enumOf } from './enum.js';
import { NETWORK_NAMESPACE } from './hostname-status.js';
import { num, obj } from './yaml-read.js';

export const NODE_ADDRESS_SORT_ALGORITHM_ID = 'default';

export interface NodeAddressSortAlgorithmSpec {
  algorithm: AddressSortAlgorithm;
}

export const NodeAddressSortAlgorithm = defineResource<NodeAddressSortAlgorithmSpec>({
  type: 'NodeAddressSortAlgorithms.net.talos.dev',
  defaultNamespace: NETWORK_NAMESPACE,
  printColumns: [{ name: 'Algorithm', jsonPath: '{.algorithm}' }],
  empty: () => ({ algorithm: AddressSortAlgorithm.V1 }),
  copy: (s) => ({ algorithm: s.algorithm }),
  equal: (a, b) => a.algorithm === b.algorithm,
  proto: { algorithm: { no: 1, kind: 'enum' } },
  fromProto: (v) => ({ algorithm: num(v.algorithm) }),
  toYAML: (s) => ({ algorithm: AddressSortAlgorithms.text(s.algorithm) }),
  fromYAML: (v) => ({ algorithm: enumOf(AddressSortAlgorithms, obj(v).algorithm) }),
});
export type NodeAddressSortAlgorithm = ResourceOf<typeof NodeAddressSortAlgorithm>;
