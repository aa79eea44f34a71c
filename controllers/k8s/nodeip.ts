// k8s.NodeIPController: NodeIP `kubelet` — the kubelet's node IPs, picked from the node's routed addresses
// (Kubernetes' own ranges left out) by the NodeIPConfig: the first IPv4 and the first IPv6 address that
// qualify. While none does it says so and keeps the last pick, as upstream.
import { K8S_NAMESPACE, KUBELET_ID, NodeIP, NodeIPConfig } from '../../resources/k8s/index.js';
import {
  filteredNodeAddressID,
  NETWORK_NAMESPACE,
  NODE_ADDRESS_FILTER_NO_K8S,
  NODE_ADDRESS_ROUTED_ID,
  NodeAddress,
  nodeIPs,
} from '../../resources/network/index.js';
import { defineController, input, output } from '../../src/cosi/controller/index.js';
import { pickNodeIPs } from './internal/node-ip.js';

export const NODEIP_CONTROLLER = 'k8s.NodeIPController';
/** the addresses the node IP is picked from, as upstream's */
export const NODEIP_ADDRESSES_ID = filteredNodeAddressID(NODE_ADDRESS_ROUTED_ID, NODE_ADDRESS_FILTER_NO_K8S);

export const NodeIPController = defineController({
  name: NODEIP_CONTROLLER,
  inputs: [
    input(NodeIPConfig, { namespace: K8S_NAMESPACE, id: KUBELET_ID }),
    input(NodeAddress, { namespace: NETWORK_NAMESPACE, id: NODEIP_ADDRESSES_ID }),
  ],
  outputs: [output(NodeIP, 'exclusive')],
  async run(rt, { signal, logger }) {
    for await (const _ of rt.events(signal)) {
      const cfg = await rt.getOrNull(NodeIPConfig, KUBELET_ID, { signal });
      const addrs = await rt.getOrNull(NodeAddress, NODEIP_ADDRESSES_ID, { signal });
      if (!cfg || !addrs) continue;
      const picked = pickNodeIPs(nodeIPs(addrs.spec), cfg.spec.validSubnets, cfg.spec.excludeSubnets);
      for (const address of picked.skipped)
        logger.warn(
          'node IP skipped, please use .machine.kubelet.nodeIP to provide explicit subnet for the node IP',
          { address },
        );
      if (picked.addresses.length === 0) {
        logger.warn(
          'no suitable node IP found, please make sure .machine.kubelet.nodeIP filters and pod/service subnets are set up correctly',
        );
        continue;
      }
      await rt.modify(NodeIP, KUBELET_ID, () => ({ addresses: picked.addresses }), { signal });
      rt.resetBackoff();
    }
  },
});
