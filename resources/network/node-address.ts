// NodeAddresses.net.talos.dev: the node's own addresses as CIDR prefixes, in several views.
import { defineResource, type ResourceOf } from '../../src/cosi/resource/typed.js';
import { type AddressSortAlgorithm, AddressSortAlgorithms } from './address-enums.js';
import { enumOf } from './enum.js';
import { NETWORK_NAMESPACE } from './hostname-status.js';
import { ipFromBytes, ipToBytes, prefixAddress } from './ip.js';

/** The views NodeAddressController publishes (see the ids' comments). */
export const NODE_ADDRESS_DEFAULT_ID = 'default'; // the first kernel address: the legacy node IP
export const NODE_ADDRESS_CURRENT_ID = 'current'; // addresses on links that are up, plus external IPs
export const NODE_ADDRESS_ROUTED_ID = 'routed'; // current minus external and SideroLink addresses
export const NODE_ADDRESS_ACCUMULATIVE_ID = 'accumulative'; // every address ever seen, never shrinking

/** The filter that keeps pod and service CIDR addresses out (k8s.AddressFilterController). */
export const NODE_ADDRESS_FILTER_NO_K8S = 'no-k8s';

/** filteredNodeAddressID names a filtered view: `accumulative-no-k8s`. */
export const filteredNodeAddressID = (kind: string, filter: string): string => `${kind}-${filter}`;

/** NodeAddressSpec lists prefixes such as `10.5.0.2/24` or `fd00::2/64`, and how they were sorted. */
export interface NodeAddressSpec {
  addresses: string[];
  /** absent is v1 (0), the zero value upstream */
  sortAlgorithm?: AddressSortAlgorithm;
}

const prefixSchema = { ip: { no: 1, kind: 'bytes' }, prefixLength: { no: 2, kind: 'int32' } } as const;

export const NodeAddress = defineResource<NodeAddressSpec>({
  type: 'NodeAddresses.net.talos.dev',
  defaultNamespace: NETWORK_NAMESPACE,
  printColumns: [
    { name: 'Addresses', jsonPath: '{.addresses}' },
    { name: 'SortAlgorithm', jsonPath: '{.sortAlgorithm}' },
  ],
  empty: () => ({ addresses: [] }),
  copy: (s) =>
    s.sortAlgorithm === undefined
      ? { addresses: [...s.addresses] }
      : { addresses: [...s.addresses], sortAlgorithm: s.sortAlgorithm },
  equal: (a, b) =>
    (a.sortAlgorithm ?? 0) === (b.sortAlgorithm ?? 0) &&
    a.addresses.length === b.addresses.length &&
    a.addresses.every((x, i) => x === b.addresses[i]),
  proto: {
    addresses: { no: 1, kind: 'message', schema: prefixSchema, repeated: true },
    sortAlgorithm: { no: 2, kind: 'enum' },
  },
  toProto: (s) => ({
    addresses: s.addresses.map((p) => ({
      ip: ipToBytes(prefixAddress(p)),
      prefixLength: Number(p.split('/')[1] ?? (p.includes(':') ? 128 : 32)),
    })),
    sortAlgorithm: s.sortAlgorithm ?? 0,
  }),
  fromProto: (v) => {
    const addresses = ((v.addresses as { ip?: Uint8Array; prefixLength?: number }[] | undefined) ?? []).map(
      (p) => `${ipFromBytes(p.ip ?? new Uint8Array(4))}/${p.prefixLength ?? 0}`,
    );
    const sort = Number(v.sortAlgorithm ?? 0);
    return sort === 0 ? { addresses } : { addresses, sortAlgorithm: sort };
  },
  toYAML: (s) => ({
    addresses: s.addresses,
    sortAlgorithm: AddressSortAlgorithms.text(s.sortAlgorithm ?? 0),
  }),
  fromYAML: (v) => {
    const o = (v ?? {}) as { addresses?: unknown; sortAlgorithm?: unknown };
    const addresses = Array.isArray(o.addresses) ? o.addresses.map(String) : [];
    const sort = enumOf(AddressSortAlgorithms, o.sortAlgorithm);
    return sort === 0 ? { addresses } : { addresses, sortAlgorithm: sort };
  },
});
export type NodeAddress = ResourceOf<typeof NodeAddress>;

/** nodeIPs are the addresses of the prefixes, without their lengths. */
export const nodeIPs = (s: NodeAddressSpec): string[] => s.addresses.map(prefixAddress);
