// v1alpha1 links' static addressing taken together: an address twice on one link, subnets shared by
// two links, and gateways the kernel cannot reach on their link. Upstream has no such rules; each
// refuses a config the kernel would refuse (or route ambiguously) only once the node applies it.
import type { Device, Route } from '../types/v1alpha1/network.js';
import type { RuleContext } from './context.js';
import { isIPAddress } from './formats.js';
import { contains, overlaps, type Prefix, parsePrefix } from './prefix.js';

const q = JSON.stringify;

interface LinkAddress {
  readonly text: string;
  readonly path: string;
  readonly prefix: Prefix;
}
interface AddressedLink {
  readonly name: string;
  readonly path: string;
  readonly addresses: readonly LinkAddress[];
  readonly routes: readonly Route[];
  readonly dhcp: boolean;
}

const isHost = (p: Prefix) => p.bits === (p.v6 ? 128 : 32);
const isLinkLocal6 = (ip: string) => /^fe[89ab][0-9a-f]?:/i.test(ip);
const sameIP = (a: Prefix, b: Prefix) => a.v6 === b.v6 && contains({ ...a, bits: a.v6 ? 128 : 32 }, b.ip);

/** addressedLinks lists each interface and VLAN the v1alpha1 document configures, ignored ones left out. */
function addressedLinks(interfaces: readonly Device[], at: string): AddressedLink[] {
  const out: AddressedLink[] = [];
  const addressesOf = (d: { addresses?: string[]; cidr?: string }, path: string): LinkAddress[] => {
    const raw = [
      ...(d.addresses ?? []).map((text, i) => ({ text, path: `${path}.addresses[${i}]` })),
      ...(d.cidr ? [{ text: d.cidr, path: `${path}.cidr` }] : []),
    ];
    // unparseable addresses are the address rule's to report
    return raw.flatMap((a) => {
      const prefix = parsePrefix(a.text);
      return prefix ? [{ ...a, prefix }] : [];
    });
  };
  interfaces.forEach((d, i) => {
    if (d.ignore) return;
    const path = `${at}[${i}]`;
    const name = d.interface ?? `interfaces[${i}]`;
    out.push({ name, path, addresses: addressesOf(d, path), routes: d.routes ?? [], dhcp: d.dhcp === true });
    d.vlans?.forEach((v, j) => {
      const vpath = `${path}.vlans[${j}]`;
      out.push({
        name: `${name}.${v.vlanId ?? 0}`,
        path: vpath,
        addresses: addressesOf(v, vpath),
        routes: v.routes ?? [],
        dhcp: v.dhcp === true,
      });
    });
  });
  return out;
}

/** validateLinkAddressing runs the three rules over `machine.network.interfaces` (at its path). */
export function validateLinkAddressing(interfaces: readonly Device[], at: string, ctx: RuleContext): void {
  const links = addressedLinks(interfaces, at);
  for (const link of links) duplicateAddresses(link, ctx);
  sharedSubnets(links, ctx);
  for (const link of links) offLinkGateways(link, ctx);
}

function duplicateAddresses(link: AddressedLink, ctx: RuleContext): void {
  link.addresses.forEach((a, k) => {
    const first = link.addresses.slice(0, k).find((b) => sameIP(a.prefix, b.prefix));
    if (first)
      ctx.error(
        a.path,
        `address ${q(a.text)} is already on link ${q(link.name)} as ${q(first.text)} (${first.path})`,
      );
  });
}

/**
 * sharedSubnets: two links whose subnets overlap give the kernel two connected routes for the same
 * destinations. Host addresses (/32, /128) add no subnet route, and IPv6 link-local prefixes are scoped
 * to their link, so neither counts; several subnets on one link are primary and secondary addresses.
 */
function sharedSubnets(links: readonly AddressedLink[], ctx: RuleContext): void {
  const subnets = (l: AddressedLink) =>
    l.addresses.filter((a) => !isHost(a.prefix) && !(a.prefix.v6 && isLinkLocal6(a.prefix.ip)));
  links.forEach((link, i) => {
    for (const a of subnets(link)) {
      const earlier = links
        .slice(0, i)
        .flatMap((other) => subnets(other).map((b) => ({ other, b })))
        .find(({ other, b }) => other.name !== link.name && overlaps(a.prefix, b.prefix));
      if (earlier)
        ctx.error(
          a.path,
          `address ${q(a.text)} on link ${q(link.name)} overlaps ${q(earlier.b.text)} on link ${q(earlier.other.name)} (${earlier.b.path})`,
        );
    }
  });
}

/**
 * offLinkGateways: without DHCP a link's subnets come from its static addresses only, and the kernel
 * refuses a route through a gateway none of them holds, unless a gateway-less route on the same link
 * makes the gateway reachable. A family with no static address on the link is not judged (router
 * advertisements may bring IPv6 prefixes); IPv6 link-local gateways are always on-link.
 */
function offLinkGateways(link: AddressedLink, ctx: RuleContext): void {
  if (link.dhcp || link.addresses.length === 0) return;
  const onLink = link.routes.flatMap((r) => {
    const p = !r.gateway && r.network ? parsePrefix(r.network) : undefined;
    return p ? [p] : [];
  });
  link.routes.forEach((r, k) => {
    const gw = r.gateway;
    if (!gw || !isIPAddress(gw) || gw.includes('%')) return;
    const v6 = gw.includes(':');
    if (v6 && isLinkLocal6(gw)) return;
    const own = link.addresses.filter((a) => a.prefix.v6 === v6);
    if (own.length === 0) return;
    const reachable = (p: Prefix) => p.v6 === v6 && contains(p, gw);
    if (own.some((a) => reachable(a.prefix)) || onLink.some(reachable)) return;
    ctx.error(
      `${link.path}.routes[${k}].gateway`,
      `gateway ${q(gw)} is off-link: outside every address of link ${q(link.name)} (${own.map((a) => a.text).join(', ')}); ` +
        `add an on-link route to it (network: ${gw}/${v6 ? 128 : 32}, no gateway) or an address whose subnet holds it`,
    );
  });
}
