// IP prefixes for the rules that compare addresses: parsing, containment and overlap, IPv4 and IPv6 apart.
import { BlockList } from 'node:net';
import { isCIDR } from './formats.js';

export interface Prefix {
  readonly ip: string;
  readonly bits: number;
  readonly v6: boolean;
}

/** parsePrefix reads `addr/bits`; a bare address is the whole address, as the config controllers read it. */
export function parsePrefix(s: string): Prefix | undefined {
  const text = s.includes('/') ? s : `${s}/${s.includes(':') ? 128 : 32}`;
  if (!isCIDR(text)) return undefined;
  const [ip, bits] = text.split('/') as [string, string];
  return { ip, bits: Number(bits), v6: ip.includes(':') };
}

/** contains masks the prefix's host bits, as the kernel and Go's netip do. */
export const contains = (p: Prefix, ip: string): boolean => {
  const b = new BlockList();
  b.addSubnet(p.ip, p.bits, p.v6 ? 'ipv6' : 'ipv4');
  return b.check(ip, p.v6 ? 'ipv6' : 'ipv4');
};

/**
 * overlaps: one prefix holds the other, or they are apart, so the shorter decides. IPv4 and IPv6 never
 * overlap (an IPv4-mapped IPv6 prefix included), as netip.Prefix.Overlaps has it.
 */
export const overlaps = (a: Prefix, b: Prefix): boolean =>
  a.v6 === b.v6 && (a.bits <= b.bits ? contains(a, b.ip) : contains(b, a.ip));
