// network.RouteConfigController: RouteSpecs of the cmdline and configuration layers.
import { Family, familyOfIP, Scope } from '../../resources/network/address-enums.js';
import { ConfigLayer, layeredID, NETWORK_CONFIG_NAMESPACE } from '../../resources/network/config-layer.js';
import { DEFAULT_ROUTE_METRIC, routeID } from '../../resources/network/ids.js';
import {
  RouteProtocol,
  RouteType,
  RoutingTable,
  RoutingTables,
} from '../../resources/network/route-enums.js';
import { RouteSpec, type RouteSpecSpec, routeSpecZero } from '../../resources/network/route-spec.js';
import { type Controller, defineController, output } from '../../src/cosi/controller/index.js';
import { cmdlineRoutes } from './internal/cmdline.js';
import {
  type ConfigInputs,
  configInputs,
  readConfigInputs,
  typedLinks,
  vlanLinkName,
} from './internal/inputs.js';
import { isMulticast, parseIP, parsePrefix } from './internal/ip.js';

export interface RouteConfigOptions {
  /** the kernel command line */
  readonly cmdline?: string;
}

/** routeConfigController writes the wanted routes into network-config, one copy per layer. */
export function routeConfigController(opts: RouteConfigOptions = {}): Controller {
  return defineController({
    name: 'network.RouteConfigController',
    inputs: configInputs(),
    outputs: [output(RouteSpec, 'shared')],
    async run(rt, { signal, logger }) {
      for await (const _ of rt.events(signal)) {
        rt.startTrackingOutputs();
        const inputs = await readConfigInputs(rt, opts.cmdline, logger, signal);
        for (const r of routesOf(inputs)) {
          const id = routeID(r.table, r.family, r.destination, r.gateway, r.priority, r.outLinkName);
          await rt.modify(RouteSpec, layeredID(r.configLayer, id), () => r, {
            namespace: NETWORK_CONFIG_NAMESPACE,
            signal,
          });
        }
        await rt.cleanupOutputs({ namespace: NETWORK_CONFIG_NAMESPACE, type: RouteSpec.type });
        rt.resetBackoff();
      }
    },
  });
}

interface RouteInput {
  destination?: string | undefined;
  gateway?: string | undefined;
  source?: string | undefined;
  metric?: number | undefined;
  mtu?: number | undefined;
  table?: string | undefined;
}

/** configRoute converts one configured route; undefined when an address does not parse. */
export function configRoute(link: string, r: RouteInput): RouteSpecSpec | undefined {
  const dst = r.destination ? parsePrefix(r.destination) : undefined;
  const gw = r.gateway ? parseIP(r.gateway) : '';
  const src = r.source ? parseIP(r.source) : '';
  if ((r.destination && !dst) || gw === undefined || src === undefined) return undefined;
  // a default destination is no destination (upstream's Normalize)
  const destination = dst && dst.bits > 0 ? `${dst.ip}/${dst.bits}` : '';
  let family: number = Family.Inet4;
  if (gw && familyOfIP(gw) === Family.Inet6) family = Family.Inet6;
  else if (dst && familyOfIP(dst.ip) === Family.Inet6) family = Family.Inet6;
  return {
    ...routeSpecZero(),
    family,
    destination,
    gateway: gw,
    source: src,
    outLinkName: link,
    table: r.table ? RoutingTables.parse(r.table) : RoutingTable.Main,
    priority: r.metric || DEFAULT_ROUTE_METRIC,
    scope: Scope.Global,
    type: dst && isMulticast(dst.ip) ? RouteType.Multicast : RouteType.Unicast,
    protocol: RouteProtocol.Static,
    configLayer: ConfigLayer.MachineConfiguration,
    mtu: r.mtu ?? 0,
  };
}

/** routesOf: the ip= gateways' routes, the v1alpha1 interfaces' routes and the link documents' routes. */
export function routesOf(inputs: ConfigInputs): RouteSpecSpec[] {
  const out: RouteSpecSpec[] = [];
  for (const r of cmdlineRoutes(inputs.cmdline)) {
    if (inputs.ignored.has(r.outLinkName)) continue;
    out.push({
      ...routeSpecZero(),
      family: r.family === 6 ? Family.Inet6 : Family.Inet4,
      destination: r.destination,
      gateway: r.gateway,
      source: r.source,
      outLinkName: r.outLinkName,
      table: RoutingTable.Main,
      priority: r.priority,
      scope: r.scope === 'link' ? Scope.Link : Scope.Global,
      type: RouteType.Unicast,
      protocol: RouteProtocol.Boot,
      configLayer: ConfigLayer.Cmdline,
    });
  }
  const push = (link: string, r: RouteInput) => {
    const spec = configRoute(link, r);
    if (spec) out.push(spec);
  };
  for (const d of inputs.devices) {
    for (const r of d.routes ?? []) push(d.interface, { ...r, destination: r.network, table: undefined });
    for (const v of d.vlans ?? [])
      for (const r of v.routes ?? [])
        push(vlanLinkName(d.interface, v.vlanId ?? 0), { ...r, destination: r.network, table: undefined });
  }
  for (const l of typedLinks(inputs.cfg)) for (const r of l.spec.routes ?? []) push(l.name, r);
  return out;
}
