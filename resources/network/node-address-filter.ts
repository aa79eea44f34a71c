// NodeAddressFilters.net.talos.dev: which subnets a filtered NodeAddress view keeps and drops.
import { defineResource, type ResourceOf } from '../../src/cosi/resource/typed.js';
import { NETWORK_NAMESPACE } from './hostname-status.js';
import { netIPPrefix, prefixesOfMessages, prefixMessage } from './wire.js';
import { obj, strs } from './yaml-read.js';

/** NodeAddressFilterSpec: prefixes as text (`10.244.0.0/16`). */
export interface NodeAddressFilterSpec {
  includeSubnets: string[];
  excludeSubnets: string[];
}

const same = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((x, i) => x === b[i]);

export const NodeAddressFilter = defineResource<NodeAddressFilterSpec>({
  type: 'NodeAddressFilters.net.talos.dev',
  defaultNamespace: NETWORK_NAMESPACE,
  printColumns: [
    { name: 'Include Subnets', jsonPath: '{.includeSubnets}' },
    { name: 'Exclude Subnets', jsonPath: '{.excludeSubnets}' },
  ],
  empty: () => ({ includeSubnets: [], excludeSubnets: [] }),
  copy: (s) => ({ includeSubnets: [...s.includeSubnets], excludeSubnets: [...s.excludeSubnets] }),
  equal: (a, b) => same(a.includeSubnets, b.includeSubnets) && same(a.excludeSubnets, b.excludeSubnets),
  proto: { includeSubnets: netIPPrefix(1, true), excludeSubnets: netIPPrefix(2, true) },
  toProto: (s) => ({
    includeSubnets: s.includeSubnets.map(prefixMessage),
    excludeSubnets: s.excludeSubnets.map(prefixMessage),
  }),
  fromProto: (v) => ({
    includeSubnets: prefixesOfMessages(v.includeSubnets),
    excludeSubnets: prefixesOfMessages(v.excludeSubnets),
  }),
  toYAML: (s) => ({ includeSubnets: s.includeSubnets, excludeSubnets: s.excludeSubnets }),
  fromYAML: (v) => {
    const o = obj(v);
    return { includeSubnets: strs(o.includeSubnets), excludeSubnets: strs(o.excludeSubnets) };
  },
});
export type NodeAddressFilter = ResourceOf<typeof NodeAddressFilter>;
