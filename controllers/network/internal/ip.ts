// IP arithmetic the network config controllers need: parse, mask, contain, compare prefixes.
import { isIPv4, isIPv6 } from 'node:net';
import { ipFromBytes, ipToBytes } from '../../../resources/network/ip.js';

/** Family of an address: 4 or 6. */
export type IPFamily = 4 | 6;

/** parseIP gives the canonical spelling of an address (IPv6 zone dropped), or undefined if it is none. */
export function parseIP(s: string): string | undefined {
  const bare = s.replace(/%.*$/, '');
  if (!isIPv4(bare) && !isIPv6(bare)) return undefined;
  return ipFromBytes(ipToBytes(bare));
}

export const familyOf = (ip: string): IPFamily => (ip.includes(':') ? 6 : 4);
export const bitLen = (ip: string): number => (familyOf(ip) === 4 ? 32 : 128);

/** Prefix is an address with a prefix length, the address kept as written (not masked), like netip.Prefix. */
export interface Prefix {
  readonly ip: string;
  readonly bits: number;
}

export const prefixString = (p: Prefix): string => `${p.ip}/${p.bits}`;

/** parsePrefix reads `addr/len`; undefined when either part is invalid. */
export function parsePrefix(s: string): Prefix | undefined {
  const slash = s.lastIndexOf('/');
  if (slash < 0) return undefined;
  const ip = parseIP(s.slice(0, slash));
  const len = s.slice(slash + 1);
  if (ip === undefined || !/^\d{1,3}$/.test(len)) return undefined;
  const bits = Number(len);
  return bits <= bitLen(ip) ? { ip, bits } : undefined;
}

/** maskLength is the prefix length of a contiguous netmask, 0 for a non-contiguous one (as Go's IPMask.Size). */
export function maskLength(mask: string): number {
  const bytes = ipToBytes(mask);
  let ones = 0;
  let ended = false;
  for (const b of bytes)
    for (let bit = 7; bit >= 0; bit--) {
      const set = (b >> bit) & 1;
      if (set && ended) return 0;
      if (set) ones++;
      else ended = true;
    }
  return ones;
}

/** masked zeroes the host bits of a prefix's address. */
export function masked(p: Prefix): Prefix {
  const bytes = ipToBytes(p.ip);
  for (let i = 0; i < bytes.length; i++) {
    const keep = Math.max(0, Math.min(8, p.bits - i * 8));
    bytes[i] = bytes[i]! & ((0xff << (8 - keep)) & 0xff);
  }
  return { ip: ipFromBytes(bytes), bits: p.bits };
}

/**
 * nthIP is the subnet's network address plus n (1: the Kubernetes API's Service IP, 10: the cluster DNS
 * Service's), or undefined when the subnet does not hold that many addresses.
 */
export function nthIP(p: Prefix, n: number): string | undefined {
  const hostBits = bitLen(p.ip) - p.bits;
  if (hostBits < 31 && n >= 2 ** hostBits) return undefined;
  const bytes = ipToBytes(masked(p).ip);
  let carry = n;
  for (let i = bytes.length - 1; i >= 0 && carry > 0; i--) {
    const sum = bytes[i]! + (carry & 0xff);
    bytes[i] = sum & 0xff;
    carry = Math.floor(carry / 256) + (sum > 0xff ? 1 : 0);
  }
  return ipFromBytes(bytes);
}

/** contains says whether ip lies inside the prefix (families must match). */
export function contains(p: Prefix, ip: string): boolean {
  if (familyOf(p.ip) !== familyOf(ip)) return false;
  return masked(p).ip === masked({ ip, bits: p.bits }).ip;
}

/** overlaps says whether two prefixes share any address. */
export function overlaps(a: Prefix, b: Prefix): boolean {
  if (familyOf(a.ip) !== familyOf(b.ip)) return false;
  const bits = Math.min(a.bits, b.bits);
  return masked({ ip: a.ip, bits }).ip === masked({ ip: b.ip, bits }).ip;
}

/** isMulticast: 224.0.0.0/4 or ff00::/8. */
export const isMulticast = (ip: string): boolean =>
  familyOf(ip) === 4 ? contains({ ip: '224.0.0.0', bits: 4 }, ip) : contains({ ip: 'ff00::', bits: 8 }, ip);
