// network.NodeAddressController: the node's address views (default, current, routed, accumulative, and
// one filtered copy of the last three per NodeAddressFilter) from the kernel's addresses and links.
import { AddressStatus } from '../../resources/network/address-status.js';
import { NETWORK_NAMESPACE, NodeAddress, OperationalState } from '../../resources/network/index.js';
import { LinkStatus, linkStatusPhysical } from '../../resources/network/link-status.js';
import { NodeAddressFilter } from '../../resources/network/node-address-filter.js';
import {
  NODE_ADDRESS_SORT_ALGORITHM_ID,
  NodeAddressSortAlgorithm,
} from '../../resources/network/node-address-sort-algorithm.js';
import { defineController, input, output } from '../../src/cosi/controller/index.js';
import { compareByAlgorithm } from './internal/address-sort.js';
import { nodeAddressViews } from './internal/node-addresses.js';

export const NODE_ADDRESS_CONTROLLER = 'network.NodeAddressController';
/** The owner of kernel-observed AddressStatuses (other owners, e.g. a platform's external IPs, are not "default"). */
export const ADDRESS_STATUS_CONTROLLER = 'network.AddressStatusController';

export const NodeAddressController = defineController({
  name: NODE_ADDRESS_CONTROLLER,
  inputs: [
    input(NodeAddressSortAlgorithm, { id: NODE_ADDRESS_SORT_ALGORITHM_ID }),
    input(AddressStatus, { namespace: NETWORK_NAMESPACE }),
    input(LinkStatus, { namespace: NETWORK_NAMESPACE }),
    input(NodeAddressFilter, { namespace: NETWORK_NAMESPACE }),
  ],
  outputs: [output(NodeAddress, 'exclusive')],
  async run(rt, { signal }) {
    for await (const _ of rt.events(signal)) {
      const algo = await rt.getOrNull(NodeAddressSortAlgorithm, NODE_ADDRESS_SORT_ALGORITHM_ID, { signal });
      if (!algo) continue; // the order is not known yet
      const algorithm = algo.spec.algorithm;
      const linksUp = new Set<number>();
      for (const l of await rt.list(LinkStatus, { signal })) {
        const s = l.spec;
        const operating =
          s.operationalState === OperationalState.Up || s.operationalState === OperationalState.Unknown;
        if (operating && (!linkStatusPhysical(s) || s.linkState)) linksUp.add(s.index);
      }
      const filters = (await rt.list(NodeAddressFilter, { signal })).map((f) => ({
        id: f.metadata.id,
        include: f.spec.includeSubnets,
        exclude: f.spec.excludeSubnets,
      }));
      const addresses = (await rt.list(AddressStatus, { signal })).map((a) => ({
        prefix: a.spec.address,
        linkIndex: a.spec.linkIndex,
        linkName: a.spec.linkName,
        scope: a.spec.scope,
        kernel: a.metadata.owner === ADDRESS_STATUS_CONTROLLER,
      }));
      const existing = await rt.list(NodeAddress, { signal });
      const previous = new Map(
        existing
          .filter((r) => r.metadata.owner === NODE_ADDRESS_CONTROLLER)
          .map((r) => [r.metadata.id, r.spec.addresses] as const),
      );
      const views = nodeAddressViews({
        addresses,
        linksUp,
        filters,
        compare: compareByAlgorithm(algorithm),
        previous,
      });
      for (const [id, prefixes] of views)
        await rt.modify(NodeAddress, id, () => ({ addresses: prefixes, sortAlgorithm: algorithm }), {
          signal,
        });
      for (const r of existing)
        if (r.metadata.owner === NODE_ADDRESS_CONTROLLER && !views.has(r.metadata.id))
          await rt.destroy(r.metadata, { signal });
      rt.resetBackoff();
    }
  },
});
