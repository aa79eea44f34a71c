// Merge rule for resolvers: layers in order, servers appended within a layer, replaced across layers
// while an address family the new layer lacks is kept from below; the machine config replaces outright.
import { ConfigLayer } from '../../../resources/network/config-layer.js';
import { RESOLVER_ID, type ResolverSpecSpec } from '../../../resources/network/resolver-spec.js';
import type { Merged } from './merge-layers.js';

const is4 = (ip: string) => !ip.includes(':');
const is6 = (ip: string) => ip.includes(':');

/** mergeResolvers folds every layer's resolvers into one spec; no servers from any layer is no output. */
export function mergeResolvers(specs: readonly ResolverSpecSpec[]): Merged<ResolverSpecSpec> {
  // a stable sort by layer: specs of one layer keep their id order
  const sorted = [...specs].sort((a, b) => a.configLayer - b.configLayer);
  let servers: string[] | undefined;
  let layer: number = ConfigLayer.Default;
  let searchDomains: string[] = [];
  for (const s of sorted) {
    // a higher layer's search domains go first
    searchDomains = [...s.searchDomains, ...searchDomains];
    if (servers !== undefined && s.configLayer === layer) servers = [...servers, ...s.dnsServers];
    // appending nothing to nothing is still nothing, as upstream's append to a nil slice
    else if (servers === undefined && s.configLayer === layer)
      servers = s.dnsServers.length > 0 ? [...s.dnsServers] : undefined;
    else if (s.configLayer === ConfigLayer.MachineConfiguration) servers = [...s.dnsServers];
    else servers = mergeDNSServers(servers, s.dnsServers);
    layer = s.configLayer;
  }
  if (servers === undefined) return new Map();
  return new Map([[RESOLVER_ID, { dnsServers: servers, configLayer: layer as ConfigLayer, searchDomains }]]);
}

/** mergeDNSServers replaces dst with src, but keeps dst's IPv4 (or IPv6) servers when src has none of them. */
export function mergeDNSServers(dst: readonly string[] | undefined, src: readonly string[]): string[] {
  if (dst === undefined) return [...src];
  if (dst.some(is4) && !src.some(is4)) return [...src, ...dst.filter(is4)];
  if (dst.some(is6) && !src.some(is6)) return [...src, ...dst.filter(is6)];
  return [...src];
}
