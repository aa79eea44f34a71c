// network.RouteSpecController: every RouteSpec of `network` in its table in the kernel. It holds a
// finalizer on each spec and deletes a torn-down spec's routes before releasing it; route, address and
// link events wake it, so a route deleted by hand, or one whose link or gateway subnet appears, is
// acted on at once.
import {
  familyOfIP,
  KernelRefusal,
  NETWORK_NAMESPACE,
  RouteSpec,
  type RouteSpecSpec,
  routeFlagsEqual,
} from '../../resources/network/index.js';
import { defineController, input, type Logger, output } from '../../src/cosi/controller/index.js';
import * as C from '../../src/sys/netlink/constants.js';
import {
  encodeRoute,
  isNetlinkError,
  type NetlinkSocket,
  parsePrefix,
  type Route,
  type RouteAttrs,
} from '../../src/sys/netlink/index.js';
import { linkIndexOf } from './internal/kernel-links.js';
import { refusals } from './internal/kernel-refusals.js';
import { CREATE, dumpLinks, dumpRoutes, send } from './internal/kernel-rtnl.js';
import { kernelLoop } from './internal/kernel-watch.js';

export const ROUTE_SPEC_CONTROLLER = 'network.RouteSpecController';

const GROUPS = [
  C.RTNLGRP_LINK,
  C.RTNLGRP_IPV4_IFADDR,
  C.RTNLGRP_IPV6_IFADDR,
  C.RTNLGRP_IPV4_ROUTE,
  C.RTNLGRP_IPV6_ROUTE,
];

/** RouteSpecController applies RouteSpecs to the kernel's routing tables. */
export const RouteSpecController = defineController({
  name: ROUTE_SPEC_CONTROLLER,
  inputs: [input(RouteSpec, { namespace: NETWORK_NAMESPACE, kind: 'strong' })],
  outputs: [output(KernelRefusal, 'shared')], // each spec controller owns the refusals of its own kind
  async run(rt, { signal, logger }) {
    const refused = refusals(rt, logger, { kind: 'route', type: RouteSpec.type });
    try {
      await kernelLoop(rt, { groups: GROUPS, signal }, async (sock) => {
        const specs = await rt.list(RouteSpec, { namespace: NETWORK_NAMESPACE, signal });
        for (const s of specs)
          if (s.metadata.phase === 'running' && !s.metadata.finalizers.has(ROUTE_SPEC_CONTROLLER))
            await rt.addFinalizer(s.metadata, ROUTE_SPEC_CONTROLLER, { signal });
        const links = await dumpLinks(sock, { signal });
        const routes = await dumpRoutes(sock, { signal });
        for (const s of specs) {
          const id = s.metadata.id;
          const version = String(s.metadata.version);
          if (!refused.due(id, version)) continue;
          const subject = `route ${id}`;
          try {
            if (s.metadata.phase === 'tearingDown') {
              for (const r of matchingRoutes(routes, s.spec))
                await deleteRoute(sock, r, s.spec, logger, signal);
              await rt.removeFinalizer(s.metadata, ROUTE_SPEC_CONTROLLER, { signal });
            } else {
              const link = linkIndexOf(links, s.spec.outLinkName);
              if (await syncRoute(sock, routes, link, s.spec, logger, signal)) {
                refused.replaced(id, version, subject);
                continue;
              }
            }
            refused.applied(id, subject);
          } catch (e) {
            if (signal.aborted) throw e;
            refused.refused(id, version, subject, e);
          }
        }
        refused.retain(new Set(specs.map((s) => s.metadata.id)));
        await refused.flush({ signal });
        rt.resetBackoff();
      });
    } finally {
      refused.close();
    }
  },
});

const prefixOf = (cidr: string) => (cidr === '' ? undefined : parsePrefix(cidr));

/** matchingRoutes is upstream's findMatchingRoutes: same family, destination, gateway, table and metric. */
export function matchingRoutes(routes: readonly Route[], s: RouteSpecSpec): Route[] {
  const dst = prefixOf(s.destination);
  return routes.filter(
    (r) =>
      r.family === s.family &&
      r.dstLen === (dst?.prefixLen ?? 0) &&
      (r.dst ?? '') === (dst?.address ?? '') &&
      (r.gateway ?? '') === s.gateway &&
      r.table === s.table &&
      (r.priority ?? 0) === s.priority,
  );
}

/**
 * routeSettled: the rest of the route is as the spec says. A source only counts when the spec names
 * one, and the link only when it names one: without, the kernel picks it from the gateway.
 */
export function routeSettled(r: Route, s: RouteSpecSpec, linkIndex: number): boolean {
  return (
    r.scope === s.scope &&
    routeFlagsEqual(r.flags, s.flags) &&
    r.protocol === s.protocol &&
    (linkIndex === 0 || (r.oif ?? 0) === linkIndex) &&
    (s.source === '' || r.prefsrc === s.source) &&
    (r.metrics?.mtu ?? 0) === s.mtu &&
    r.type === s.type
  );
}

/** routeMessage is the RTM_NEWROUTE upstream sends for a spec (the source is the preferred source). */
export function routeMessage(s: RouteSpecSpec, linkIndex: number): RouteAttrs {
  const dst = prefixOf(s.destination);
  return {
    family: s.family || familyOfIP(s.destination || s.gateway || s.source),
    dstLen: dst?.prefixLen ?? 0,
    table: s.table,
    protocol: s.protocol,
    scope: s.scope,
    type: s.type,
    flags: s.flags,
    ...(dst ? { dst: dst.address } : {}),
    ...(s.source ? { prefsrc: s.source } : {}),
    ...(s.gateway ? { gateway: s.gateway } : {}),
    ...(linkIndex ? { oif: linkIndex } : {}),
    ...(s.priority ? { priority: s.priority } : {}),
    ...(s.mtu ? { metrics: { mtu: s.mtu } } : {}),
  };
}

const fields = (s: RouteSpecSpec) => ({
  destination: s.destination || 'default',
  gateway: s.gateway,
  table: s.table,
  link: s.outLinkName,
  priority: s.priority,
  family: s.family,
  type: s.type,
});

async function syncRoute(
  sock: NetlinkSocket,
  routes: readonly Route[],
  linkIndex: number,
  s: RouteSpecSpec,
  logger: Logger,
  signal: AbortSignal,
): Promise<boolean> {
  if (linkIndex === 0 && s.outLinkName !== '') return false; // its link is not there (yet)
  let matched = false;
  let replaced = false;
  for (const r of matchingRoutes(routes, s)) {
    if (routeSettled(r, s, linkIndex)) {
      matched = true;
      continue;
    }
    await deleteRoute(sock, r, s, logger, signal, 'removed route due to mismatch');
    replaced = true;
  }
  if (matched) return replaced;
  await send(
    sock,
    C.RTM_NEWROUTE,
    CREATE,
    encodeRoute(routeMessage(s, linkIndex)),
    'addRoute',
    [s.destination || 'default'],
    { signal },
  );
  logger.info('created route', fields(s));
  return replaced;
}

async function deleteRoute(
  sock: NetlinkSocket,
  r: Route,
  s: RouteSpecSpec,
  logger: Logger,
  signal: AbortSignal,
  what = 'deleted route',
): Promise<void> {
  try {
    await send(sock, C.RTM_DELROUTE, 0, encodeRoute(r), 'deleteRoute', [s.destination || 'default'], {
      signal,
    });
  } catch (e) {
    if (!isNetlinkError(e, 'ESRCH')) throw e; // gone already
  }
  logger.info(what, fields(s));
}
