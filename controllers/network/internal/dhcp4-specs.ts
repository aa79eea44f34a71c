// A DHCPv4 lease as the specs upstream's DHCP4 operator writes (operator layer): the address, a link
// MTU, the routes (classless routes when given, else a default route per router, plus an on-link route
// to a router outside the subnet), the hostname, the resolvers and the time servers.
import {
  AddressFlag,
  type AddressSpecSpec,
  ConfigLayer,
  Family,
  type HostnameSpecSpec,
  type LinkSpecSpec,
  linkSpecZero,
  parseFQDN,
  type ResolverSpecSpec,
  RouteProtocol,
  type RouteSpecSpec,
  RouteType,
  RoutingTable,
  routeSpecZero,
  Scope,
  type TimeServerSpecSpec,
} from '../../../resources/network/index.js';
import type { Lease } from '../../../src/sys/dhcp4/lease.js';
import { contains } from './ip.js';

export interface OperatorSpecs {
  readonly addresses: readonly AddressSpecSpec[];
  readonly links: readonly LinkSpecSpec[];
  readonly routes: readonly RouteSpecSpec[];
  readonly hostnames: readonly HostnameSpecSpec[];
  readonly resolvers: readonly ResolverSpecSpec[];
  readonly timeServers: readonly TimeServerSpecSpec[];
}

export const NO_SPECS: OperatorSpecs = {
  addresses: [],
  links: [],
  routes: [],
  hostnames: [],
  resolvers: [],
  timeServers: [],
};

export interface Dhcp4SpecOptions {
  readonly linkName: string;
  readonly routeMetric: number;
  /** take the server's hostname (not when the config names one, or asks not to) */
  readonly useHostname: boolean;
}

/** dhcp4Specs maps a lease; a zero destination is the default route, spelled '' as in the specs. */
export function dhcp4Specs(lease: Lease, o: Dhcp4SpecOptions): OperatorSpecs {
  const prefix = `${lease.address}/${lease.prefix}`;
  const route = (r: Partial<RouteSpecSpec>): RouteSpecSpec => ({
    ...routeSpecZero(),
    family: Family.Inet4,
    source: lease.address,
    outLinkName: o.linkName,
    table: RoutingTable.Main,
    priority: o.routeMetric,
    scope: Scope.Global,
    type: RouteType.Unicast,
    protocol: RouteProtocol.Boot,
    configLayer: ConfigLayer.Operator,
    ...r,
  });
  const routes: RouteSpecSpec[] = [];
  if (lease.routes.length > 0) {
    for (const r of lease.routes) {
      const destination = r.destination.endsWith('/0') ? '' : r.destination;
      routes.push(route({ destination, gateway: r.gateway === '0.0.0.0' ? '' : r.gateway }));
    }
  } else {
    for (const gw of lease.routers) {
      routes.push(route({ gateway: gw }));
      if (!contains({ ip: lease.address, bits: lease.prefix }, gw))
        routes.push(route({ destination: `${gw}/32`, scope: Scope.Link }));
    }
  }
  const hostnames: HostnameSpecSpec[] = [];
  if (o.useHostname && lease.hostname) {
    const name = parseFQDN(lease.hostname.replace(/\0+$/, ''));
    const domainname = lease.domain?.replace(/\0+$/, '') || name.domainname;
    if (name.hostname) hostnames.push({ ...name, domainname, configLayer: ConfigLayer.Operator });
  }
  return {
    addresses: [
      {
        address: prefix,
        linkName: o.linkName,
        family: Family.Inet4,
        scope: Scope.Global,
        flags: AddressFlag.Permanent,
        announceWithARP: false,
        priority: o.routeMetric,
        configLayer: ConfigLayer.Operator,
      },
    ],
    links: lease.mtu
      ? [{ ...linkSpecZero(), name: o.linkName, mtu: lease.mtu, up: true, configLayer: ConfigLayer.Operator }]
      : [],
    routes,
    hostnames,
    resolvers: lease.dns.length
      ? [{ dnsServers: [...lease.dns], searchDomains: [...lease.search], configLayer: ConfigLayer.Operator }]
      : [],
    timeServers: lease.ntp.length ? [{ ntpServers: [...lease.ntp], configLayer: ConfigLayer.Operator }] : [],
  };
}
