// RouteSpecs.net.talos.dev: a route the config wants in a routing table.
import { defineResource, type ResourceOf } from '../../src/cosi/resource/typed.js';
import { Families, Scopes } from './address-enums.js';
import { ConfigLayer, configLayerOf, configLayerText } from './config-layer.js';
import { enumOf } from './enum.js';
import { NETWORK_NAMESPACE } from './hostname-status.js';
import { RouteFlagSet, RouteProtocols, RouteTypes, RoutingTables } from './route-enums.js';
import { ipMessage, ipOfMessage, netIP, netIPPrefix, prefixMessage, prefixOfMessage } from './wire.js';
import { num, obj, str } from './yaml-read.js';

/** RouteSpecSpec: addresses as text, the empty string for none (a default route has destination ''). */
export interface RouteSpecSpec {
  family: number;
  destination: string;
  source: string;
  gateway: string;
  outLinkName: string;
  table: number;
  priority: number;
  scope: number;
  type: number;
  flags: number;
  protocol: number;
  configLayer: ConfigLayer;
  mtu: number;
}

export const routeSpecZero = (): RouteSpecSpec => ({
  family: 0,
  destination: '',
  source: '',
  gateway: '',
  outLinkName: '',
  table: 0,
  priority: 0,
  scope: 0,
  type: 0,
  flags: 0,
  protocol: 0,
  configLayer: ConfigLayer.Default,
  mtu: 0,
});

export const routeSpecEqual = (a: RouteSpecSpec, b: RouteSpecSpec): boolean =>
  a.family === b.family &&
  a.destination === b.destination &&
  a.source === b.source &&
  a.gateway === b.gateway &&
  a.outLinkName === b.outLinkName &&
  a.table === b.table &&
  a.priority === b.priority &&
  a.scope === b.scope &&
  a.type === b.type &&
  a.flags === b.flags &&
  a.protocol === b.protocol &&
  a.configLayer === b.configLayer &&
  a.mtu === b.mtu;

export const RouteSpec = defineResource<RouteSpecSpec>({
  type: 'RouteSpecs.net.talos.dev',
  defaultNamespace: NETWORK_NAMESPACE,
  empty: routeSpecZero,
  copy: (s) => ({ ...s }),
  equal: routeSpecEqual,
  proto: {
    family: { no: 1, kind: 'enum' },
    destination: netIPPrefix(2),
    source: netIP(3),
    gateway: netIP(4),
    outLinkName: { no: 5, kind: 'string' },
    table: { no: 6, kind: 'enum' },
    priority: { no: 7, kind: 'uint32' },
    scope: { no: 8, kind: 'enum' },
    type: { no: 9, kind: 'enum' },
    flags: { no: 10, kind: 'uint32' },
    protocol: { no: 11, kind: 'enum' },
    configLayer: { no: 12, kind: 'enum' },
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
    outLinkName: str(v.outLinkName),
    table: num(v.table),
    priority: num(v.priority),
    scope: num(v.scope),
    type: num(v.type),
    flags: num(v.flags),
    protocol: num(v.protocol),
    configLayer: num(v.configLayer) as ConfigLayer,
    mtu: num(v.mtu),
  }),
  toYAML: (s) => ({
    family: Families.text(s.family),
    dst: s.destination,
    src: s.source,
    gateway: s.gateway,
    ...(s.outLinkName ? { outLinkName: s.outLinkName } : {}),
    table: RoutingTables.text(s.table),
    ...(s.priority ? { priority: s.priority } : {}),
    scope: Scopes.text(s.scope),
    type: RouteTypes.text(s.type),
    flags: RouteFlagSet.text(s.flags),
    protocol: RouteProtocols.text(s.protocol),
    layer: configLayerText(s.configLayer),
    ...(s.mtu ? { mtu: s.mtu } : {}),
  }),
  fromYAML: (v) => {
    const o = obj(v);
    return {
      family: enumOf(Families, o.family),
      destination: str(o.dst),
      source: str(o.src),
      gateway: str(o.gateway),
      outLinkName: str(o.outLinkName),
      table: enumOf(RoutingTables, o.table),
      priority: num(o.priority),
      scope: enumOf(Scopes, o.scope),
      type: enumOf(RouteTypes, o.type),
      flags: enumOf(RouteFlagSet, o.flags),
      protocol: enumOf(RouteProtocols, o.protocol),
      configLayer: configLayerOf(o.layer),
      mtu: num(o.mtu),
    };
  },
});
export type RouteSpec = ResourceOf<typeof RouteSpec>;
