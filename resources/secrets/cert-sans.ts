// CertSANs.secrets.talos.dev (`api`, `k8s`, `maintenance`): the names a serving certificate must carry.
import { defineResource, type ResourceOf } from '../../src/cosi/resource/typed.js';
import { canonicalIP } from '../network/ip.js';
import { codec, f } from './fields.js';
import { SECRETS_NAMESPACE } from './namespace.js';

export const CERT_SAN_API_ID = 'api';
export const CERT_SAN_KUBERNETES_ID = 'k8s';
export const CERT_SAN_MAINTENANCE_ID = 'maintenance';

export interface CertSANSpec {
  ips: string[];
  dnsNames: string[];
  fqdn: string;
}

export const CertSAN = defineResource<CertSANSpec>({
  type: 'CertSANs.secrets.talos.dev',
  defaultNamespace: SECRETS_NAMESPACE,
  sensitivity: 'sensitive',
  ...codec<CertSANSpec>({
    ips: f('ips', 1, 'ips'),
    dnsNames: f('dnsNames', 2, 'strings'),
    fqdn: f('fqdn', 3, 'string'),
  }),
});
export type CertSAN = ResourceOf<typeof CertSAN>;

/** isIP tells an IP SAN from a DNS one. */
export function isIP(s: string): boolean {
  try {
    canonicalIP(s);
    return true;
  } catch {
    return false;
  }
}

/** SANParts are SAN sources: mixed strings (split by form), IPs and DNS names. */
export interface SANParts {
  readonly sans?: readonly string[];
  readonly ips?: readonly string[];
  readonly dnsNames?: readonly string[];
  readonly fqdn?: string;
}

/**
 * certSANSpec merges SAN sources as upstream's Append/AppendIPs/AppendDNSNames then Sort do: empty
 * names and duplicates dropped (IPs compared by value), DNS names sorted lexically, IPs by value.
 */
export function certSANSpec(parts: SANParts): CertSANSpec {
  const ips = new Set<string>();
  const dns = new Set<string>();
  for (const s of parts.sans ?? []) if (s !== '') isIP(s) ? ips.add(canonicalIP(s)) : dns.add(s);
  for (const ip of parts.ips ?? []) ips.add(canonicalIP(ip));
  for (const n of parts.dnsNames ?? []) if (n !== '') dns.add(n);
  return { ips: sortIPs([...ips]), dnsNames: [...dns].sort(), fqdn: parts.fqdn ?? '' };
}

/** sortIPs orders IPv4 before IPv6 and each by value, as netip.Addr.Compare does. */
export function sortIPs(ips: readonly string[]): string[] {
  const key = (ip: string) => {
    const c = canonicalIP(ip);
    return c.includes(':')
      ? `6${expand6(c)}`
      : `4${c
          .split('.')
          .map((n) => n.padStart(3, '0'))
          .join('.')}`;
  };
  return [...ips].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
}

function expand6(ip: string): string {
  const [h = '', t = ''] = ip.split('::');
  const hs = h ? h.split(':') : [];
  const ts = t ? t.split(':') : [];
  const all = ip.includes('::') ? [...hs, ...new Array(8 - hs.length - ts.length).fill('0'), ...ts] : hs;
  return all.map((g) => g.padStart(4, '0')).join(':');
}
