// The node's addresses narrowed by subnets, as upstream's net.FilterIPs: an address is kept when it lies in
// one of the valid subnets (any, if none is given) and in none of the excluded ones. A subnet may be a bare
// address (a /32 or /128).
import { contains, parsePrefix } from '../network/internal/ip.js';

const inAny = (subnets: readonly string[], ip: string) =>
  subnets.some((s) => {
    const p = parsePrefix(s.includes('/') ? s : `${s}/${s.includes(':') ? 128 : 32}`);
    return p !== undefined && contains(p, ip);
  });

/** filterIPs keeps the order of `ips`. */
export function filterIPs(
  ips: readonly string[],
  valid: readonly string[],
  exclude: readonly string[],
): string[] {
  return ips.filter((ip) => (valid.length === 0 || inAny(valid, ip)) && !inAny(exclude, ip));
}
