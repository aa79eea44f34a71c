// network.LinkStatusController: every link of the kernel as a LinkStatus (id: the link's name), from a
// dump at start and again on every link event. What upstream reads through ethtool and sysfs (driver,
// bus path, PCI ids, speed, duplex, port) is left at its zero; the link state is the carrier.
import {
  LinkKind,
  LinkStatus,
  type LinkStatusSpec,
  linkStatusZero,
  NETWORK_NAMESPACE,
} from '../../resources/network/index.js';
import { defineController, output } from '../../src/cosi/controller/index.js';
import * as C from '../../src/sys/netlink/constants.js';
import type { Link } from '../../src/sys/netlink/index.js';
import { bondMasterOf, bridgeMasterOf, vlanOf, vrfMasterOf } from './internal/kernel-links.js';
import { dumpLinks, qdiscOf } from './internal/kernel-rtnl.js';
import { kernelLoop } from './internal/kernel-watch.js';

export const LINK_STATUS_CONTROLLER = 'network.LinkStatusController';

/** ethtool's PORT_OTHER and DUPLEX_UNKNOWN: what upstream reports for a link ethtool says nothing about */
const PORT_OTHER = 255;
const DUPLEX_UNKNOWN = 255;

/** LinkStatusController mirrors the kernel's links into LinkStatuses. */
export const LinkStatusController = defineController({
  name: LINK_STATUS_CONTROLLER,
  outputs: [output(LinkStatus, 'exclusive')],
  run(rt, { signal }) {
    return kernelLoop(rt, { groups: [C.RTNLGRP_LINK], signal }, async (sock) => {
      const links = await dumpLinks(sock, { signal });
      rt.startTrackingOutputs();
      for (const l of links) {
        if (!l.name) continue;
        const want = linkStatusOf(l);
        await rt.modify(LinkStatus, l.name, () => want, { namespace: NETWORK_NAMESPACE, signal });
      }
      await rt.cleanupOutputs(LinkStatus);
    });
  },
});

/** linkStatusOf is a dumped link as upstream fills its LinkStatus from rtnetlink. */
export function linkStatusOf(l: Link): LinkStatusSpec {
  const s = linkStatusZero();
  const info = l.info;
  s.alias = l.alias ?? '';
  s.altNames = [...l.altNames];
  s.index = l.index;
  s.type = l.type;
  s.linkIndex = l.link ?? 0;
  s.flags = l.flags;
  s.hardwareAddr = l.address ?? '';
  s.permanentAddr = l.permAddress ?? '';
  s.broadcastAddr = l.broadcast ?? '';
  s.mtu = l.mtu ?? 0;
  s.queueDisc = qdiscOf(l);
  s.masterIndex = l.master ?? 0;
  s.operationalState = l.operState ?? 0;
  s.kind = info?.kind ?? '';
  s.slaveKind = info?.slaveKind ?? '';
  s.linkState = l.carrier ?? false;
  s.port = PORT_OTHER;
  s.duplex = DUPLEX_UNKNOWN;
  switch (s.kind) {
    case LinkKind.VLAN:
      s.vlan = vlanOf(info?.vlan);
      break;
    case LinkKind.Bond:
      s.bondMaster = bondMasterOf(info?.bond);
      break;
    case LinkKind.Bridge:
      s.bridgeMaster = bridgeMasterOf(info?.bridge);
      break;
    case LinkKind.VRF:
      s.vrfMaster = vrfMasterOf(info?.data);
      break;
  }
  return s;
}
