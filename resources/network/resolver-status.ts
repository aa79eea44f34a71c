// ResolverStatuses.net.talos.dev: the DNS servers and search domains in effect (`talosctl get resolvers`).
import { defineResource, type ResourceOf } from '../../src/cosi/resource/typed.js';
import { NETWORK_NAMESPACE } from './hostname-status.js';
import { ipMessage, ipsOfMessages, netIP } from './wire.js';
import { obj, strs } from './yaml-read.js';

export interface ResolverStatusSpec {
  dnsServers: string[];
  searchDomains: string[];
}

const same = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((x, i) => x === b[i]);

export const ResolverStatus = defineResource<ResolverStatusSpec>({
  type: 'ResolverStatuses.net.talos.dev',
  defaultNamespace: NETWORK_NAMESPACE,
  aliases: ['resolvers'],
  printColumns: [
    { name: 'Resolvers', jsonPath: '{.dnsServers}' },
    { name: 'Search Domains', jsonPath: '{.searchDomains}' },
  ],
  empty: () => ({ dnsServers: [], searchDomains: [] }),
  copy: (s) => ({ dnsServers: [...s.dnsServers], searchDomains: [...s.searchDomains] }),
  equal: (a, b) => same(a.dnsServers, b.dnsServers) && same(a.searchDomains, b.searchDomains),
  proto: { dnsServers: netIP(1, true), searchDomains: { no: 2, kind: 'string', repeated: true } },
  toProto: (s) => ({ dnsServers: s.dnsServers.map(ipMessage), searchDomains: s.searchDomains }),
  fromProto: (v) => ({ dnsServers: ipsOfMessages(v.dnsServers), searchDomains: strs(v.searchDomains) }),
  toYAML: (s) => ({ dnsServers: s.dnsServers, searchDomains: s.searchDomains }),
  fromYAML: (v) => {
    const o = obj(v);
    return { dnsServers: strs(o.dnsServers), searchDomains: strs(o.searchDomains) };
  },
});
export type ResolverStatus = ResourceOf<typeof ResolverStatus>;
