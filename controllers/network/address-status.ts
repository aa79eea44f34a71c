// network.AddressStatusController: every address of the kernel as an AddressStatus (id: `link/prefix`),
// from a dump at start and again on every address or link event.
import {
  AddressStatus,
  type AddressStatusSpec,
  addressID,
  NETWORK_NAMESPACE,
} from '../../resources/network/index.js';
import { defineController, output } from '../../src/cosi/controller/index.js';
import * as C from '../../src/sys/netlink/constants.js';
import { type Address, ipString } from '../../src/sys/netlink/index.js';
import { dumpAddresses, dumpLinks, multicastOf } from './internal/kernel-rtnl.js';
import { kernelLoop } from './internal/kernel-watch.js';
import { ADDRESS_STATUS_CONTROLLER } from './node-address.js';

const GROUPS = [C.RTNLGRP_LINK, C.RTNLGRP_IPV4_IFADDR, C.RTNLGRP_IPV6_IFADDR];

/** AddressStatusController mirrors the kernel's addresses into AddressStatuses. */
export const AddressStatusController = defineController({
  name: ADDRESS_STATUS_CONTROLLER,
  outputs: [output(AddressStatus, 'shared')],
  run(rt, { signal }) {
    return kernelLoop(rt, { groups: GROUPS, signal }, async (sock) => {
      const names = new Map((await dumpLinks(sock, { signal })).map((l) => [l.index, l.name ?? '']));
      const addrs = await dumpAddresses(sock, { signal });
      rt.startTrackingOutputs();
      for (const a of addrs) {
        const want = addressStatusOf(a, names.get(a.index) ?? '');
        await rt.modify(AddressStatus, addressID(want.linkName, want.address), () => want, {
          namespace: NETWORK_NAMESPACE,
          signal,
        });
      }
      await rt.cleanupOutputs(AddressStatus);
    });
  },
});

/** addressStatusOf is a dumped address as upstream fills its AddressStatus (the prefix from IFA_ADDRESS). */
export function addressStatusOf(a: Address, linkName: string): AddressStatusSpec {
  const multicast = multicastOf(a);
  return {
    address: a.address === undefined ? '' : `${a.address}/${a.prefixLen}`,
    local: a.local ?? '',
    broadcast: a.broadcast ?? '',
    anycast: a.anycast ?? '',
    multicast: multicast ? ipString(multicast) : '',
    linkIndex: a.index,
    linkName,
    family: a.family,
    scope: a.scope,
    flags: a.flags,
    priority: a.priority ?? 0,
  };
}
