// ResolverSpecs.net.talos.dev: DNS servers and search domains the config wants, from one layer.
import { defineResource, type ResourceOf } from '../../src/cosi/resource/typed.js';
import { ConfigLayer, configLayerOf, configLayerText } from './config-layer.js';
import { NETWORK_NAMESPACE } from './hostname-status.js';
import { ipMessage, ipsOfMessages, netIP } from './wire.js';
import { num, obj, strs } from './yaml-read.js';

export const RESOLVER_ID = 'resolvers';

/** ResolverSpecSpec: servers as IP text. */
export interface ResolverSpecSpec {
  dnsServers: string[];
  configLayer: ConfigLayer;
  searchDomains: string[];
}

const same = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((x, i) => x === b[i]);

export const ResolverSpec = defineResource<ResolverSpecSpec>({
  type: 'ResolverSpecs.net.talos.dev',
  defaultNamespace: NETWORK_NAMESPACE,
  printColumns: [
    { name: 'Layer', jsonPath: '{.layer}' },
    { name: 'Resolvers', jsonPath: '{.dnsServers}' },
    { name: 'Search Domains', jsonPath: '{.searchDomains}' },
  ],
  empty: () => ({ dnsServers: [], configLayer: ConfigLayer.Default, searchDomains: [] }),
  copy: (s) => ({
    dnsServers: [...s.dnsServers],
    configLayer: s.configLayer,
    searchDomains: [...s.searchDomains],
  }),
  equal: (a, b) =>
    a.configLayer === b.configLayer &&
    same(a.dnsServers, b.dnsServers) &&
    same(a.searchDomains, b.searchDomains),
  proto: {
    dnsServers: netIP(1, true),
    configLayer: { no: 2, kind: 'enum' },
    searchDomains: { no: 3, kind: 'string', repeated: true },
  },
  toProto: (s) => ({ ...s, dnsServers: s.dnsServers.map(ipMessage) }),
  fromProto: (v) => ({
    dnsServers: ipsOfMessages(v.dnsServers),
    configLayer: num(v.configLayer) as ConfigLayer,
    searchDomains: strs(v.searchDomains),
  }),
  toYAML: (s) => ({
    dnsServers: s.dnsServers,
    layer: configLayerText(s.configLayer),
    ...(s.searchDomains.length > 0 ? { searchDomains: s.searchDomains } : {}),
  }),
  fromYAML: (v) => {
    const o = obj(v);
    return {
      dnsServers: strs(o.dnsServers),
      configLayer: configLayerOf(o.layer),
      searchDomains: strs(o.searchDomains),
    };
  },
});
export type ResolverSpec = ResourceOf<typeof ResolverSpec>;
