// Addresses on the wire: IPv4/IPv6 as 4/16 network-order bytes, shown as inet_ntop(3) shows them (so they
// compare equal to iproute2's output); hardware addresses as lowercase "aa:bb:cc:dd:ee:ff".
import { isIPv4, isIPv6 } from 'node:net';
import { AF_INET, AF_INET6 } from '../socket.js';

/** ipFamily is AF_INET or AF_INET6 for an address string; anything else throws. */
export function ipFamily(ip: string): number {
  if (isIPv4(ip)) return AF_INET;
  if (isIPv6(ip)) return AF_INET6;
  throw new TypeError(`not an IP address: ${JSON.stringify(ip)}`);
}

/** ipBytes encodes an IPv4 or IPv6 address. */
export function ipBytes(ip: string): Buffer {
  if (isIPv4(ip)) return Buffer.from(ip.split('.').map(Number));
  if (!isIPv6(ip)) throw new TypeError(`not an IP address: ${JSON.stringify(ip)}`);
  let s = ip.replace(/%.*$/, '');
  const v4 = /(\d+\.\d+\.\d+\.\d+)$/.exec(s);
  if (v4) {
    const [a, b, c, d] = v4[1]!.split('.').map(Number) as [number, number, number, number];
    s = `${s.slice(0, v4.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = s.split('::') as [string, string | undefined];
  const h = head ? head.split(':') : [];
  const t = tail ? tail.split(':') : [];
  const groups = tail === undefined ? h : [...h, ...Array<string>(8 - h.length - t.length).fill('0'), ...t];
  const out = Buffer.alloc(16);
  for (const [i, g] of groups.entries()) out.writeUInt16BE(Number.parseInt(g, 16), i * 2);
  return out;
}

/** ipString decodes 4 or 16 bytes; other lengths come out as hex (never thrown on). */
export function ipString(b: Uint8Array): string {
  if (b.length === 4) return `${b[0]}.${b[1]}.${b[2]}.${b[3]}`;
  if (b.length !== 16) return Buffer.from(b).toString('hex');
  const w: number[] = [];
  for (let i = 0; i < 16; i += 2) w.push((b[i]! << 8) | b[i + 1]!);
  // the longest run of two or more zero words becomes "::", the first such run on a tie (as glibc)
  let best = -1;
  let bestLen = 0;
  for (let i = 0; i < 8; ) {
    if (w[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && w[j] === 0) j++;
    if (j - i > bestLen) [best, bestLen] = [i, j - i];
    i = j;
  }
  if (bestLen < 2) best = -1;
  // IPv4-compatible and -mapped addresses end in dotted quad, as inet_ntop writes them
  if (best === 0 && (bestLen === 6 || (bestLen === 5 && w[5] === 0xffff)))
    return `::${bestLen === 5 ? 'ffff:' : ''}${b[12]}.${b[13]}.${b[14]}.${b[15]}`;
  const hex = (xs: number[]) => xs.map((x) => x.toString(16)).join(':');
  if (best === -1) return hex(w);
  return `${hex(w.slice(0, best))}::${hex(w.slice(best + bestLen))}`;
}

/** macString shows a hardware address as lowercase colon-separated hex. */
export const macString = (b: Uint8Array): string =>
  Array.from(b, (x) => x.toString(16).padStart(2, '0')).join(':');

/** macBytes parses "aa:bb:cc:dd:ee:ff" (or '-' separated); a malformed one throws. */
export function macBytes(mac: string): Buffer {
  const parts = mac.split(/[:-]/);
  if (parts.length < 2 || parts.some((p) => !/^[0-9a-fA-F]{1,2}$/.test(p)))
    throw new TypeError(`not a hardware address: ${JSON.stringify(mac)}`);
  return Buffer.from(parts.map((p) => Number.parseInt(p, 16)));
}

export interface Prefix {
  readonly address: string;
  readonly prefixLen: number;
  readonly family: number;
}

/** parsePrefix reads "10.0.0.1/24" or "fd00::1/64"; a bare address is a host prefix (/32, /128). */
export function parsePrefix(cidr: string): Prefix {
  const slash = cidr.indexOf('/');
  const address = slash === -1 ? cidr : cidr.slice(0, slash);
  const family = ipFamily(address);
  const max = family === AF_INET ? 32 : 128;
  const prefixLen = slash === -1 ? max : Number(cidr.slice(slash + 1));
  if (!Number.isInteger(prefixLen) || prefixLen < 0 || prefixLen > max)
    throw new TypeError(`bad prefix length in ${JSON.stringify(cidr)}`);
  return { address, prefixLen, family };
}

/** broadcastOf is an IPv4 prefix's directed broadcast address. */
export function broadcastOf(address: string, prefixLen: number): string {
  const b = ipBytes(address);
  const host = prefixLen >= 32 ? 0 : 0xffffffff >>> prefixLen;
  const out = Buffer.alloc(4);
  out.writeUInt32BE((b.readUInt32BE(0) | host) >>> 0);
  return ipString(out);
}
