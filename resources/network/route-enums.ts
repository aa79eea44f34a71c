// Route enums as the kernel numbers them (RTN_*, RTPROT_*, RTM_F_*, RT_TABLE_*), with upstream's text forms.
import { defineEnum, defineFlags, type NamedEnum } from './enum.js';

/** RouteType is RTN_*. */
export type RouteType = number;
export const RouteType = {
  Unspec: 0,
  Unicast: 1,
  Local: 2,
  Broadcast: 3,
  Anycast: 4,
  Multicast: 5,
  Blackhole: 6,
  Unreachable: 7,
  Prohibit: 8,
  Throw: 9,
  NAT: 10,
  XResolve: 11,
} as const;
export const RouteTypes = defineEnum('RouteType', {
  0: 'unspec',
  1: 'unicast',
  2: 'local',
  3: 'broadcast',
  4: 'anycast',
  5: 'multicast',
  6: 'blackhole',
  7: 'unreachable',
  8: 'prohibit',
  9: 'throw',
  10: 'nat',
  11: 'xresolve',
});

/** RouteProtocol is RTPROT_*: who installed the route. */
export type RouteProtocol = number;
export const RouteProtocol = {
  Unspec: 0,
  Redirect: 1,
  Kernel: 2,
  Boot: 3,
  Static: 4,
  RA: 9,
  DHCP: 16,
} as const;
export const RouteProtocols = defineEnum('RouteProtocol', {
  0: 'unspec',
  1: 'redirect',
  2: 'kernel',
  3: 'boot',
  4: 'static',
  9: 'ra',
  10: 'mrt',
  11: 'zebra',
  12: 'bird',
  13: 'dnrouted',
  14: 'xorp',
  15: 'ntk',
  16: 'dhcp',
  17: 'mrtd',
  18: 'keepalived',
  42: 'babel',
  99: 'openr',
  186: 'bgp',
  187: 'isis',
  188: 'ospf',
  189: 'rip',
  192: 'eigrp',
});

/** RouteFlags is the RTM_F_* bitmask of a route. */
export type RouteFlags = number;
export const RouteFlag = {
  Notify: 256,
  Cloned: 512,
  Equalize: 1024,
  Prefix: 2048,
  LookupTable: 4096,
  FIBMatch: 8192,
  Offload: 16384,
  Trap: 32768,
} as const;
export const RouteFlagSet = defineFlags('RouteFlag', {
  256: 'notify',
  512: 'cloned',
  1024: 'equalize',
  2048: 'prefix',
  4096: 'lookup_table',
  8192: 'fib_match',
  16384: 'offload',
  32768: 'trap',
});
/** ROUTE_FLAGS_MASK holds the flags that count when two routes are compared. */
export const ROUTE_FLAGS_MASK = 256 | 512 | 1024 | 2048;
/** routeFlagsEqual compares flags as upstream does: only the bits of ROUTE_FLAGS_MASK. */
export const routeFlagsEqual = (a: RouteFlags, b: RouteFlags): boolean =>
  (a & ROUTE_FLAGS_MASK) === (b & ROUTE_FLAGS_MASK);

/** RoutingTable is a table number: 0 unspec, 1–252 by number, 253 default, 254 main, 255 local. */
export type RoutingTable = number;
export const RoutingTable = { Unspec: 0, Default: 253, Main: 254, Local: 255 } as const;
const tableNames: Record<number, string> = { 0: 'unspec', 253: 'default', 254: 'main', 255: 'local' };
for (let t = 1; t <= 252; t++) tableNames[t] = String(t);
export const RoutingTables: NamedEnum = defineEnum('RoutingTable', tableNames);
