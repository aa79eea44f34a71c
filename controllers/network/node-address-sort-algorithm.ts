// network.NodeAddressSortAlgorithmController: machine.features.nodeAddressSortAlgorithm → the order
// NodeAddressController sorts in (v1 when nothing says otherwise, as upstream).
import { MACHINE_CONFIG_ID, MachineConfig } from '../../resources/config/machine-config.js';
import { AddressSortAlgorithm, AddressSortAlgorithms } from '../../resources/network/index.js';
import {
  NODE_ADDRESS_SORT_ALGORITHM_ID,
  NodeAddressSortAlgorithm,
} from '../../resources/network/node-address-sort-algorithm.js';
import { accessors } from '../../src/config/index.js';
import { defineController, input, output } from '../../src/cosi/controller/index.js';
import { configOf } from '../config/config-of.js';

export const NodeAddressSortAlgorithmController = defineController({
  name: 'network.NodeAddressSortAlgorithmController',
  inputs: [input(MachineConfig, { id: MACHINE_CONFIG_ID })],
  outputs: [output(NodeAddressSortAlgorithm, 'exclusive')],
  async run(rt, { signal }) {
    for await (const _ of rt.events(signal)) {
      const cfg = await rt.getOrNull(MachineConfig, MACHINE_CONFIG_ID, { signal });
      const named = cfg ? accessors(configOf(cfg.spec)).features().nodeAddressSortAlgorithm : undefined;
      // validation refuses unknown names, so a name here is v1 or v2
      const algorithm = named ? AddressSortAlgorithms.parse(named) : AddressSortAlgorithm.V1;
      await rt.modify(NodeAddressSortAlgorithm, NODE_ADDRESS_SORT_ALGORITHM_ID, () => ({ algorithm }), {
        signal,
      });
      rt.resetBackoff();
    }
  },
});
