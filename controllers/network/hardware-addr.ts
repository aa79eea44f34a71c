// network.HardwareAddrController: HardwareAddresses `first`, the first physical link's MAC (a stable
// machine identity input, e.g. for KubeSpan's address), gone when no physical link is left.
import { FIRST_HARDWARE_ADDR_ID, HardwareAddr } from '../../resources/network/hardware-addr.js';
import { NETWORK_NAMESPACE } from '../../resources/network/index.js';
import { LinkStatus, linkStatusPhysical } from '../../resources/network/link-status.js';
import { defineController, input, output } from '../../src/cosi/controller/index.js';

export const HardwareAddrController = defineController({
  name: 'network.HardwareAddrController',
  inputs: [input(LinkStatus, { namespace: NETWORK_NAMESPACE })],
  outputs: [output(HardwareAddr, 'exclusive')],
  async run(rt, { signal }) {
    for await (const _ of rt.events(signal)) {
      rt.startTrackingOutputs();
      // links are listed by name, so "first" is the alphabetically first physical link
      const first = (await rt.list(LinkStatus, { signal })).find((l) => linkStatusPhysical(l.spec));
      if (first)
        await rt.modify(
          HardwareAddr,
          FIRST_HARDWARE_ADDR_ID,
          () => ({ name: first.metadata.id, hardwareAddr: first.spec.hardwareAddr }),
          { signal },
        );
      await rt.cleanupOutputs(HardwareAddr);
    }
  },
});
