// k8s.AddressFilterController: the `no-k8s` and `only-k8s` NodeAddressFilters from the cluster's pod and
// service CIDRs, so etcd, apid and the certificates never take a CNI address for the node's own.
import { MACHINE_CONFIG_ID, MachineConfig } from '../../resources/config/machine-config.js';
import { NODE_ADDRESS_FILTER_NO_K8S } from '../../resources/network/index.js';
import { NodeAddressFilter } from '../../resources/network/node-address-filter.js';
import { accessors } from '../../src/config/index.js';
import { defineController, input, output } from '../../src/cosi/controller/index.js';
import { configOf } from '../config/config-of.js';

export const NODE_ADDRESS_FILTER_ONLY_K8S = 'only-k8s';
/** upstream's defaults when the cluster names no subnets */
export const DEFAULT_POD_CIDR = '10.244.0.0/16';
export const DEFAULT_SERVICE_CIDR = '10.96.0.0/12';

export const AddressFilterController = defineController({
  name: 'k8s.AddressFilterController',
  inputs: [input(MachineConfig, { id: MACHINE_CONFIG_ID })],
  outputs: [output(NodeAddressFilter, 'exclusive')],
  async run(rt, { signal }) {
    for await (const _ of rt.events(signal)) {
      const cfg = await rt.getOrNull(MachineConfig, MACHINE_CONFIG_ID, { signal });
      rt.startTrackingOutputs();
      const cluster = cfg ? accessors(configOf(cfg.spec)).cluster() : undefined;
      if (cfg && cluster && Object.keys(cluster).length > 0) {
        const net = cluster.network ?? {};
        const k8s = [
          ...(net.podSubnets?.length ? net.podSubnets : [DEFAULT_POD_CIDR]),
          ...(net.serviceSubnets?.length ? net.serviceSubnets : [DEFAULT_SERVICE_CIDR]),
        ];
        await rt.modify(
          NodeAddressFilter,
          NODE_ADDRESS_FILTER_NO_K8S,
          () => ({ includeSubnets: [], excludeSubnets: k8s }),
          { signal },
        );
        await rt.modify(
          NodeAddressFilter,
          NODE_ADDRESS_FILTER_ONLY_K8S,
          () => ({ includeSubnets: k8s, excludeSubnets: [] }),
          { signal },
        );
      }
      await rt.cleanupOutputs(NodeAddressFilter);
    }
  },
});
