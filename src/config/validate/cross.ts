// Rules across documents: a typed document and the v1alpha1 field it replaces must not both be set.
import { type Config, documentsOf, v1alpha1Of } from '../container.js';
import type { RuleContext } from './context.js';

export interface CrossIssue {
  /** label of the document the issue is reported on */
  readonly document: string;
  readonly path: string;
  readonly message: string;
}

/** crossRules returns conflicts between typed documents and the v1alpha1 fields they replace. */
export function crossRules(cfg: Config, ctx: Pick<RuleContext, 'mode'>): CrossIssue[] {
  const out: CrossIssue[] = [];
  const v1 = v1alpha1Of(cfg);
  const m = v1?.machine;
  const has = (kind: Parameters<typeof documentsOf>[1]) => documentsOf(cfg, kind).length > 0;
  const conflict = (document: string, path: string, what: string) =>
    out.push({ document, path, message: `${what} is already set in v1alpha1 config` });
  if (has('HostnameConfig') && m?.network?.hostname)
    conflict('HostnameConfig', 'hostname', 'static hostname');
  if (has('HostnameConfig') && m?.features?.stableHostname === true)
    conflict('HostnameConfig', 'auto', 'stable hostname');
  const resolver = documentsOf(cfg, 'ResolverConfig')[0]?.spec;
  if (resolver?.nameservers && m?.network?.nameservers)
    conflict('ResolverConfig', 'nameservers', '.machine.network.nameservers');
  if (resolver?.searchDomains && (m?.network?.searchDomains || m?.network?.disableSearchDomain !== undefined))
    conflict('ResolverConfig', 'searchDomains', '.machine.network.searchDomains');
  if (resolver?.hostDNS && m?.features?.hostDNS)
    conflict('ResolverConfig', 'hostDNS', '.machine.features.hostDNS');
  if (has('TimeSyncConfig') && m?.time) conflict('TimeSyncConfig', 'ntp', '.machine.time');
  const staticHost = documentsOf(cfg, 'StaticHostConfig')[0];
  if (staticHost && m?.network?.extraHostEntries?.length)
    conflict(`StaticHostConfig/${staticHost.name}`, 'name', '.machine.network.extraHostEntries');
  for (const d of documentsOf(cfg, 'VolumeConfig')) {
    const legacy = d.name === 'STATE' ? 'state' : d.name === 'EPHEMERAL' ? 'ephemeral' : undefined;
    if (legacy && d.spec.encryption && m?.systemDiskEncryption?.[legacy])
      conflict(`VolumeConfig/${d.name}`, 'encryption', `.machine.systemDiskEncryption.${legacy}`);
  }
  const hostDNSOff =
    resolver?.hostDNS?.enabled === false || (!resolver?.hostDNS && m?.features?.hostDNS?.enabled === false);
  if (resolver?.nameservers?.some((n) => n.protocol === 'DoT' || n.protocol === 'DoH') && hostDNSOff)
    out.push({
      document: 'ResolverConfig',
      path: 'nameservers',
      message: 'hostDNS must be enabled when using non-default DNS protocols',
    });
  if (
    ctx.mode === 'container' &&
    resolver?.hostDNS &&
    (!resolver.hostDNS.enabled || !resolver.hostDNS.forwardKubeDNSToHost)
  )
    out.push({
      document: 'ResolverConfig',
      path: 'hostDNS',
      message: 'hostDNS and forwardKubeDNSToHost must be enabled in "container" mode',
    });
  return out;
}
