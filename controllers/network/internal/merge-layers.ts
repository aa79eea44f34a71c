// Merge rules where one layer's spec wins whole: addresses, routes, operators, hostname, time servers.

import type { AddressSpecSpec } from '../../../resources/network/address-spec.js';
import type { HostnameSpecSpec } from '../../../resources/network/hostname-spec.js';
import { HOSTNAME_ID } from '../../../resources/network/hostname-status.js';
import { addressID, operatorID, routeID } from '../../../resources/network/ids.js';
import type { OperatorSpecSpec } from '../../../resources/network/operator-spec.js';
import { RESOLVER_ID } from '../../../resources/network/resolver-spec.js';
import type { RouteSpecSpec } from '../../../resources/network/route-spec.js';
import { TIME_SERVER_ID, type TimeServerSpecSpec } from '../../../resources/network/timeserver-spec.js';

/** Merged maps each output id to the spec that goes into the `network` namespace. */
export type Merged<S> = Map<string, S>;

/**
 * highestLayer keeps, per output id, the spec of the highest layer; within one layer the later spec
 * (by input id) replaces the earlier one, as upstream's loop does.
 */
export function highestLayer<S extends { configLayer: number }>(
  specs: readonly S[],
  idOf: (s: S) => string,
): Merged<S> {
  const out: Merged<S> = new Map();
  for (const s of specs) {
    const id = idOf(s);
    const held = out.get(id);
    if (held && held.configLayer > s.configLayer) continue;
    out.set(id, s);
  }
  return out;
}

export const mergeAddresses = (specs: readonly AddressSpecSpec[]): Merged<AddressSpecSpec> =>
  highestLayer(specs, (a) => addressID(a.linkName, a.address));

export const mergeRoutes = (specs: readonly RouteSpecSpec[]): Merged<RouteSpecSpec> =>
  highestLayer(specs, (r) => routeID(r.table, r.family, r.destination, r.gateway, r.priority, r.outLinkName));

export const mergeOperators = (specs: readonly OperatorSpecSpec[]): Merged<OperatorSpecSpec> =>
  highestLayer(specs, (o) => operatorID(o.operator, o.linkName, o.vip.ip));

/** mergeHostname: the highest layer with a hostname wins; no hostname anywhere means no output. */
export function mergeHostname(specs: readonly HostnameSpecSpec[]): Merged<HostnameSpecSpec> {
  let final: HostnameSpecSpec | undefined;
  for (const s of specs) {
    if (final?.hostname && s.configLayer <= final.configLayer) continue;
    final = s;
  }
  return new Map(final?.hostname ? [[HOSTNAME_ID, final]] : []);
}

/**
 * mergeTimeServers: a higher layer replaces the servers, specs of one layer append theirs; a spec
 * below the layer already held is skipped once servers are set.
 */
export function mergeTimeServers(specs: readonly TimeServerSpecSpec[]): Merged<TimeServerSpecSpec> {
  let final: TimeServerSpecSpec | undefined;
  for (const s of specs) {
    if (final && s.configLayer < final.configLayer) continue;
    if (final && s.configLayer === final.configLayer)
      final = { ...final, ntpServers: [...final.ntpServers, ...s.ntpServers] };
    else final = { ...s, ntpServers: [...s.ntpServers] };
  }
  return new Map(final ? [[TIME_SERVER_ID, final]] : []);
}

export { RESOLVER_ID };
