// etcd.SpecController: EtcdSpec `etcd` — the member's name (the hostname) and its addresses, picked from
// the node's routed addresses without Kubernetes ones, as upstream: the first of them, or every one in
// the advertised subnets; it listens everywhere unless listen subnets are given.

import type { EtcdConfigSpec } from '../../resources/etcd/index.js';
import {
  ETCD_CONFIG_ID,
  ETCD_SPEC_ID,
  EtcdConfig,
  EtcdSpec,
  type EtcdSpecSpec,
} from '../../resources/etcd/index.js';
import {
  filteredNodeAddressID,
  HOSTNAME_ID,
  HostnameStatus,
  NODE_ADDRESS_FILTER_NO_K8S,
  NODE_ADDRESS_ROUTED_ID,
  NodeAddress,
  prefixAddress,
} from '../../resources/network/index.js';
import { defineController, input, output } from '../../src/cosi/controller/index.js';
import { destroyIfPresent } from '../internal/destroy-if-present.js';
import { filterIPs } from '../internal/filter-ips.js';

export const ETCD_SPEC_CONTROLLER = 'etcd.SpecController';
/** the node addresses etcd picks from: routed, Kubernetes' own (pod and service ranges) left out */
export const ETCD_ADDRESSES_ID = filteredNodeAddressID(NODE_ADDRESS_ROUTED_ID, NODE_ADDRESS_FILTER_NO_K8S);

export const EtcdSpecController = defineController({
  name: ETCD_SPEC_CONTROLLER,
  inputs: [
    input(EtcdConfig, { id: ETCD_CONFIG_ID }),
    input(HostnameStatus, { id: HOSTNAME_ID }),
    input(NodeAddress, { id: ETCD_ADDRESSES_ID }),
  ],
  outputs: [output(EtcdSpec, 'exclusive')],
  async run(rt, { signal }) {
    for await (const _ of rt.events(signal)) {
      const cfg = await rt.getOrNull(EtcdConfig, ETCD_CONFIG_ID, { signal });
      const hostname = await rt.getOrNull(HostnameStatus, HOSTNAME_ID, { signal });
      const addresses = await rt.getOrNull(NodeAddress, ETCD_ADDRESSES_ID, { signal });
      const spec =
        cfg && hostname && addresses
          ? etcdSpecOf(cfg.spec, hostname.spec.hostname, addresses.spec.addresses.map(prefixAddress))
          : undefined;
      if (spec) await rt.modify(EtcdSpec, ETCD_SPEC_ID, () => spec, { signal });
      else await destroyIfPresent(rt, EtcdSpec.pointer(ETCD_SPEC_ID), { signal });
      rt.resetBackoff();
    }
  },
});

/** etcdSpecOf is undefined while no address qualifies: etcd cannot advertise nothing. */
export function etcdSpecOf(
  cfg: EtcdConfigSpec,
  name: string,
  ips: readonly string[],
): EtcdSpecSpec | undefined {
  const pick = (valid: readonly string[], exclude: readonly string[]) => filterIPs(ips, valid, exclude);
  const advertisable = pick(cfg.advertiseValidSubnets, cfg.advertiseExcludeSubnets);
  const advertised = cfg.advertiseValidSubnets.length === 0 ? advertisable.slice(0, 1) : advertisable;
  if (advertised.length === 0) return undefined;
  const wildcard = advertised[0]!.includes(':') ? '::' : '0.0.0.0';
  const listening =
    cfg.listenValidSubnets.length === 0 ? [] : pick(cfg.listenValidSubnets, cfg.listenExcludeSubnets);
  const loopback = wildcard === '::' ? '::1' : '127.0.0.1';
  return {
    name,
    advertisedAddresses: advertised,
    listenPeerAddresses: listening.length === 0 ? [wildcard] : listening,
    // local clients (machined, the API server) reach it on loopback
    listenClientAddresses: listening.length === 0 ? [wildcard] : [loopback, ...listening],
    image: cfg.image,
    extraArgs: { ...cfg.extraArgs },
  };
}
