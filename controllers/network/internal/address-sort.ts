// How the node's addresses are ordered and filtered (upstream's addressutil): v1 compares addresses,
// v2 puts IPv4 first and, for one address, the more specific prefix first, then a containing prefix after
// the prefixes it contains. Addresses compare as netip.Addr does: IPv4 before IPv6, then byte by byte.
import { AddressSortAlgorithm } from '../../../resources/network/index.js';
import { ipToBytes } from '../../../resources/network/ip.js';
import { contains, familyOf, type Prefix, parsePrefix } from './ip.js';

export type PrefixCompare = (a: string, b: string) => number;

const sign = (n: number) => (n < 0 ? -1 : n > 0 ? 1 : 0);

/** compareAddr orders two addresses as netip.Addr.Compare. */
export function compareAddr(a: string, b: string): number {
  const x = ipToBytes(a);
  const y = ipToBytes(b);
  if (x.length !== y.length) return sign(x.length - y.length);
  for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return sign(x[i]! - y[i]!);
  return 0;
}

const parse = (s: string): Prefix => {
  const p = parsePrefix(s);
  if (!p) throw new TypeError(`${JSON.stringify(s)} is not a prefix`);
  return p;
};

/** comparePrefixesV1: by address, then by length. */
export const comparePrefixesV1: PrefixCompare = (a, b) => {
  const pa = parse(a);
  const pb = parse(b);
  return compareAddr(pa.ip, pb.ip) || sign(pa.bits - pb.bits);
};

/** comparePrefixesV2: family, then more specific first, then address. */
export const comparePrefixesV2: PrefixCompare = (a, b) => {
  const pa = parse(a);
  const pb = parse(b);
  const fam = sign(familyOf(pa.ip) - familyOf(pb.ip));
  if (fam) return fam;
  if (pa.ip === pb.ip) return -sign(pa.bits - pb.bits);
  const aHasB = contains(pa, pb.ip);
  const bHasA = contains(pb, pa.ip);
  if (aHasB && !bHasA) return 1;
  if (!aHasB && bHasA) return -1;
  return compareAddr(pa.ip, pb.ip);
};

/** compareByAlgorithm picks the comparator an algorithm names. */
export const compareByAlgorithm = (algorithm: number): PrefixCompare =>
  algorithm === AddressSortAlgorithm.V2 ? comparePrefixesV2 : comparePrefixesV1;

/** dedupe drops adjacent repeats of a sorted list. */
export const dedupe = (sorted: readonly string[]): string[] =>
  sorted.filter((x, i) => i === 0 || sorted[i - 1] !== x);

/** filterPrefixes keeps prefixes whose address is in an include subnet (when any) and in no exclude subnet. */
export function filterPrefixes(
  prefixes: readonly string[],
  include: readonly string[],
  exclude: readonly string[],
): string[] {
  const inc = include.map(parse);
  const exc = exclude.map(parse);
  return prefixes.filter((p) => {
    const ip = parse(p).ip;
    if (inc.length > 0 && !inc.some((s) => contains(s, ip))) return false;
    return !exc.some((s) => contains(s, ip));
  });
}

/** insertSorted adds prefixes not yet present, keeping the order (the accumulative view never shrinks). */
export function insertSorted(
  existing: readonly string[],
  add: readonly string[],
  cmp: PrefixCompare,
): string[] {
  const out = [...existing];
  for (const p of add) {
    let lo = 0;
    let hi = out.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cmp(out[mid]!, p) < 0) lo = mid + 1;
      else hi = mid;
    }
    if (lo < out.length && cmp(out[lo]!, p) === 0) continue;
    out.splice(lo, 0, p);
  }
  return out;
}
