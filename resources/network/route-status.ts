// RouteStatuses.net.talos.dev: a route as the kernel reports it (`talosctl get routes`).
import { defineResource, type ResourceOf } from '../../src/cosi/resource/typed.js';
import { Families, Scopes } from './address-enums.js';
import { enumOf } from './enum.js';
import { NETWORK_NAMESPACE } from './hostname-status.js';
import { RouteFlagSet, RouteProtocols, RouteTypes, RoutingTables } from './route-enums.js';
import { ipMessage, ipOfMessage, netIP, netIPPrefix, prefixMessage, prefixOfMessage } from './wire.js';
import { num, obj, str } from './yaml-read.js';

/** RouteStatusSpec: addresses as text, the empty string for none. */
export interface RouteStatusSpec {
  family: number;
  destination: string;
  source: string;
  gateway: string;
  outLinkIndex: number;
  outLinkName: string;
  table: number;
  priority: number;
  scope: number;
  type: number;
  flags: number;
  protocol: number;
  mtu: number;
}

const zero = (): RouteStatusSpec => ({
  family: 0,
  destination: '',
  source: '',
  gateway: '',
  outLinkIndex: 0,
  outLinkName: '',
  table: 0,
  priority: 0,
  scope: 0,
  type: 0,
  flags: 0,
  protocol: 0,
  mtu: 0,
});
const KEYS = Object.keys(zero()) as (keyof RouteStatusSpec)[];

export const RouteStatus = defineResource<RouteStatusSpec>({
  type: 'RouteStatuses.net.talos.dev',
  defaultNamespace: NETWORK_NAMESPACE,
  aliases: ['route', 'routes'],
  printColumns: [
    { name: 'Destination', jsonPath: '{.dst}' },
    { name: 'Gateway', jsonPath: '{.gateway}' },
    { name: 'Link', jsonPath: '{.outLinkName}' },
    { name: 'Metric', jsonPath: '{.priority}' },
  ],
  empty: zero,
  copy: (s) => ({ ...s }),
  equal: (a, b) => KEYS.every((k) => a[k] === b[k]),
  proto: {
    family: { no: 1, kind: 'enum' },
    destination: netIPPrefix(2),
    source: netIP(3),
    gateway: netIP(4),
    outLinkIndex: { no: 5, kind: 'uint32' },
    outLinkName: { no: 6, kind: 'string' },
    table: { no: 7, kind: 'enum' },
    priority: { no: 8, kind: 'uint32' },
    scope: { no: 9, kind: 'enum' },
    type: { no: 10, kind: 'enum' },
    flags: { no: 11, kind: 'uint32' },
    protocol: { no: 12, kind: 'enum' },
    mtu: { no: 13, kind: 'uint32' },
  },
  toProto: (s) => ({
    ...s,
    destination: prefixMessage(s.destination),
    source: ipMessage(s.source),
    gateway: ipMessage(s.gateway),
  }),
  fromProto: (v) => ({
    family: num(v.family),
    destination: prefixOfMessage(v.destination),
    source: ipOfMessage(v.source),
    gateway: ipOfMessage(v.gateway),
    outLinkIndex: num(v.outLinkIndex),
    outLinkName: str(v.outLinkName),
    table: num(v.table),
    priority: num(v.priority),
    scope: num(v.scope),
    type: num(v.type),
    flags: num(v.flags),
    protocol: num(v.protocol),
    mtu: num(v.mtu),
  }),
  toYAML: (s) => ({
    family: Families.text(s.family),
    dst: s.destination,
    src: s.source,
    gateway: s.gateway,
    ...(s.outLinkIndex ? { outLinkIndex: s.outLinkIndex } : {}),
    ...(s.outLinkName ? { outLinkName: s.outLinkName } : {}),
    table: RoutingTables.text(s.table),
    priority: s.priority,
    scope: Scopes.text(s.scope),
    type: RouteTypes.text(s.type),
    flags: RouteFlagSet.text(s.flags),
    protocol: RouteProtocols.text(s.protocol),
    ...(s.mtu ? { mtu: s.mtu } : {}),
  }),
  fromYAML: (v) => {
    const o = obj(v);
    return {
      family: enumOf(Families, o.family),
      destination: str(o.dst),
      source: str(o.src),
      gateway: str(o.gateway),
      outLinkIndex: num(o.outLinkIndex),
      outLinkName: str(o.outLinkName),
      table: enumOf(RoutingTables, o.table),
      priority: num(o.priority),
      scope: enumOf(Scopes, o.scope),
      type: enumOf(RouteTypes, o.type),
      flags: enumOf(RouteFlagSet, o.flags),
      protocol: enumOf(RouteProtocols, o.protocol),
      mtu: num(o.mtu),
    };
  },
});
export type RouteStatus = ResourceOf<typeof RouteStatus>;
