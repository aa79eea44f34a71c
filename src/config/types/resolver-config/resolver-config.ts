// ResolverConfig: upstream nameservers, search domains and the host DNS cache.
import { isDNSName, isIPAddress } from '../../validate/formats.js';
import { defineDocument, type TypedHeader } from '../definition.js';
import { bool, list, str, struct, typedHeader } from '../schema.js';

export interface Nameserver {
  address?: string;
  protocol?: string;
  tlsServerName?: string;
}
export interface ResolverConfig extends TypedHeader {
  nameservers?: Nameserver[];
  searchDomains?: { domains?: string[]; disableDefault?: boolean };
  hostDNS?: { enabled?: boolean; forwardKubeDNSToHost?: boolean; resolveMemberNames?: boolean };
}

export const protocols = ['Do53', 'DoT', 'DoH'] as const;

export const ResolverConfigDefinition = defineDocument<ResolverConfig>({
  kind: 'ResolverConfig',
  named: false,
  schema: struct({
    ...typedHeader,
    nameservers: list(struct({ address: str, protocol: str, tlsServerName: str })),
    searchDomains: struct({ domains: list(str), disableDefault: bool }),
    hostDNS: struct({ enabled: bool, forwardKubeDNSToHost: bool, resolveMemberNames: bool }),
  }),
  validate(doc, ctx) {
    doc.nameservers?.forEach((ns, i) => {
      const at = `nameservers[${i}]`;
      if (!ns.address || !isIPAddress(ns.address))
        ctx.error(`${at}.address`, `${JSON.stringify(ns.address ?? '')} is not an IP address`);
      const p = ns.protocol;
      if (p !== undefined && !(protocols as readonly string[]).includes(p))
        ctx.error(`${at}.protocol`, `invalid protocol ${JSON.stringify(p)}, expected Do53, DoT or DoH`);
      if (ns.tlsServerName !== undefined && (p === undefined || p === 'Do53'))
        ctx.error(`${at}.tlsServerName`, 'tlsServerName is only allowed with DoT or DoH');
    });
    doc.searchDomains?.domains?.forEach((d, i) => {
      if (!isDNSName(d)) ctx.error(`searchDomains.domains[${i}]`, `invalid domain ${JSON.stringify(d)}`);
    });
    const usesTLS = doc.nameservers?.some((n) => n.protocol === 'DoT' || n.protocol === 'DoH');
    if (usesTLS && doc.hostDNS?.enabled === false)
      ctx.error('hostDNS.enabled', 'hostDNS must be enabled when using non-default DNS protocols');
  },
});
