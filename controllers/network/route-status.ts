// network.RouteStatusController: every route of every table as a RouteStatus (ids from routeID), from a
// dump at start and again on every route event. Link events wake it too: the kernel flushes a link's
// IPv4 routes when it goes down without a notification of each.
import {
  NETWORK_NAMESPACE,
  RouteStatus,
  type RouteStatusSpec,
  routeID,
} from '../../resources/network/index.js';
import { defineController, output } from '../../src/cosi/controller/index.js';
import * as C from '../../src/sys/netlink/constants.js';
import type { Route } from '../../src/sys/netlink/index.js';
import { dumpLinks, dumpRoutes } from './internal/kernel-rtnl.js';
import { kernelLoop } from './internal/kernel-watch.js';

export const ROUTE_STATUS_CONTROLLER = 'network.RouteStatusController';

const GROUPS = [
  C.RTNLGRP_LINK,
  C.RTNLGRP_IPV4_ROUTE,
  C.RTNLGRP_IPV6_ROUTE,
  C.RTNLGRP_IPV4_MROUTE,
  C.RTNLGRP_IPV6_MROUTE,
];

/** RouteStatusController mirrors the kernel's routes into RouteStatuses. */
export const RouteStatusController = defineController({
  name: ROUTE_STATUS_CONTROLLER,
  outputs: [output(RouteStatus, 'exclusive')],
  run(rt, { signal }) {
    return kernelLoop(rt, { groups: GROUPS, signal }, async (sock) => {
      const names = new Map((await dumpLinks(sock, { signal })).map((l) => [l.index, l.name ?? '']));
      const routes = await dumpRoutes(sock, { signal });
      rt.startTrackingOutputs();
      for (const r of routes) {
        const s = routeStatusOf(r, names.get(r.oif ?? 0) ?? '');
        const id = routeID(s.table, s.family, s.destination, s.gateway, s.priority, s.outLinkName);
        await rt.modify(RouteStatus, id, () => s, { namespace: NETWORK_NAMESPACE, signal });
      }
      await rt.cleanupOutputs(RouteStatus);
    });
  },
});

/** routeStatusOf is a dumped route as upstream fills its RouteStatus (the source is RTA_PREFSRC). */
export function routeStatusOf(r: Route, outLinkName: string): RouteStatusSpec {
  return {
    family: r.family,
    destination: r.dst === undefined ? '' : `${r.dst}/${r.dstLen}`,
    source: r.prefsrc ?? '',
    gateway: r.gateway ?? '',
    outLinkIndex: r.oif ?? 0,
    outLinkName,
    table: r.table,
    priority: r.priority ?? 0,
    scope: r.scope,
    type: r.type,
    flags: r.flags,
    protocol: r.protocol,
    mtu: r.metrics?.mtu ?? 0,
  };
}
