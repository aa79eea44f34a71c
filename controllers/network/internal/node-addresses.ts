// The node's address views (upstream's NodeAddressController), as a pure function of the kernel's
// addresses, the links' states and the filters.
import {
  filteredNodeAddressID,
  NODE_ADDRESS_ACCUMULATIVE_ID,
  NODE_ADDRESS_CURRENT_ID,
  NODE_ADDRESS_DEFAULT_ID,
  NODE_ADDRESS_ROUTED_ID,
  Scope,
} from '../../../resources/network/index.js';
import { ipToBytes } from '../../../resources/network/ip.js';
import { dedupe, filterPrefixes, insertSorted, type PrefixCompare } from './address-sort.js';
import { contains, isMulticast, parsePrefix } from './ip.js';

/** The pseudo-link platform external IPs sit on. */
export const EXTERNAL_LINK = 'external';

export interface ObservedAddress {
  readonly prefix: string;
  readonly linkIndex: number;
  readonly linkName: string;
  readonly scope: number;
  /** owned by the address status controller: a kernel address, not a platform one */
  readonly kernel: boolean;
}

export interface AddressFilter {
  readonly id: string;
  readonly include: readonly string[];
  readonly exclude: readonly string[];
}

export interface NodeAddressInputs {
  readonly addresses: readonly ObservedAddress[];
  /** indexes of links that are up (a physical one with carrier) */
  readonly linksUp: ReadonlySet<number>;
  readonly filters: readonly AddressFilter[];
  readonly compare: PrefixCompare;
  /** the views as published now: default is sticky, accumulative never shrinks */
  readonly previous: ReadonlyMap<string, readonly string[]>;
}

const LOOPBACK4 = { ip: '127.0.0.0', bits: 8 };
const LINK_LOCAL4 = { ip: '169.254.0.0', bits: 16 };
const LINK_LOCAL6 = { ip: 'fe80::', bits: 10 };

/** eligible: no link/host scope, no loopback, multicast or link-local address. */
function eligible(a: ObservedAddress): boolean {
  if (a.scope >= Scope.Link) return false;
  const p = parsePrefix(a.prefix);
  if (!p) return false;
  if (p.ip === '::1' || contains(LOOPBACK4, p.ip) || isMulticast(p.ip)) return false;
  return !contains(LINK_LOCAL4, p.ip) && !contains(LINK_LOCAL6, p.ip);
}

/** isSideroLinkULA: fdXX:XXXX:XXXX:XX03::/64, Talos' ULA for SideroLink. */
function isSideroLinkULA(prefix: string): boolean {
  const ip = prefix.slice(0, prefix.lastIndexOf('/'));
  if (!ip.includes(':')) return false;
  const b = ipToBytes(ip);
  return b[0] === 0xfd && b[7] === 0x03;
}

/** nodeAddressViews computes every NodeAddress id and its prefixes. */
export function nodeAddressViews(i: NodeAddressInputs): Map<string, string[]> {
  const byLinkThenPrefix = (a: ObservedAddress, b: ObservedAddress) =>
    a.linkName < b.linkName ? -1 : a.linkName > b.linkName ? 1 : i.compare(a.prefix, b.prefix);
  const addresses = i.addresses.filter(eligible).sort(byLinkThenPrefix);

  let defaultAddress: string | undefined;
  const current: string[] = [];
  const routed: string[] = [];
  const accumulative: string[] = [];
  for (const a of addresses) {
    if (a.kernel && defaultAddress === undefined) defaultAddress = a.prefix;
    const up = i.linksUp.has(a.linkIndex);
    if (up || a.linkName === EXTERNAL_LINK) current.push(a.prefix);
    if (up && a.linkName !== EXTERNAL_LINK && !isSideroLinkULA(a.prefix)) routed.push(a.prefix);
    accumulative.push(a.prefix);
  }
  const cur = dedupe([...current].sort(i.compare));
  const rtd = dedupe([...routed].sort(i.compare));
  const accumulate = (id: string, add: readonly string[]) =>
    insertSorted(i.previous.get(id) ?? [], add, i.compare);

  const out = new Map<string, string[]>();
  if (defaultAddress !== undefined) {
    const prev = i.previous.get(NODE_ADDRESS_DEFAULT_ID);
    // the legacy node IP stays put while it is still current
    out.set(NODE_ADDRESS_DEFAULT_ID, prev?.[0] && cur.includes(prev[0]) ? [prev[0]] : [defaultAddress]);
  }
  out.set(NODE_ADDRESS_CURRENT_ID, cur);
  out.set(NODE_ADDRESS_ROUTED_ID, rtd);
  out.set(NODE_ADDRESS_ACCUMULATIVE_ID, accumulate(NODE_ADDRESS_ACCUMULATIVE_ID, accumulative));
  for (const f of i.filters) {
    const id = (kind: string) => filteredNodeAddressID(kind, f.id);
    out.set(id(NODE_ADDRESS_CURRENT_ID), filterPrefixes(cur, f.include, f.exclude));
    out.set(id(NODE_ADDRESS_ROUTED_ID), filterPrefixes(rtd, f.include, f.exclude));
    out.set(
      id(NODE_ADDRESS_ACCUMULATIVE_ID),
      accumulate(id(NODE_ADDRESS_ACCUMULATIVE_ID), filterPrefixes(accumulative, f.include, f.exclude)),
    );
  }
  return out;
}
