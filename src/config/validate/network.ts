// v1alpha1 `machine.network.*` rules: addresses, routes, bonds, bridges, VLANs, VIPs, KubeSpan.
import type { Device, NetworkConfig, Route, Vlan } from '../types/v1alpha1/network.js';
import { validateLegacyBond } from './bond.js';
import { isControlPlane, type RuleContext } from './context.js';
import { validateDeviceSelector } from './device-selector.js';
import { hostnameProblem, isCIDR, isDNSName, isIPAddress } from './formats.js';
import { validateLinkAddressing } from './link-addressing.js';
import { validateLegacyWireguard } from './wireguard.js';

const EXCLUSIVE = 'config sections are mutually exclusive';
const q = JSON.stringify;

export function validateNetwork(n: NetworkConfig, ctx: RuleContext): void {
  const at = 'machine.network';
  const problem = n.hostname === undefined ? undefined : hostnameProblem(n.hostname);
  if (problem) ctx.error(`${at}.hostname`, problem);
  n.nameservers?.forEach((ns, i) => {
    if (!isIPAddress(ns)) ctx.error(`${at}.nameservers[${i}]`, `${q(ns)}: invalid network address`);
  });
  n.searchDomains?.forEach((d, i) => {
    if (!isDNSName(d)) ctx.error(`${at}.searchDomains[${i}]`, `invalid domain ${q(d)}`);
  });
  n.extraHostEntries?.forEach((h, i) => {
    if (!h.ip || !isIPAddress(h.ip))
      ctx.error(`${at}.extraHostEntries[${i}].ip`, `${q(h.ip ?? '')}: invalid network address`);
    if (!h.aliases?.length)
      ctx.error(`${at}.extraHostEntries[${i}].aliases`, 'at least one alias is required');
  });
  n.kubespan?.filters?.excludeAdvertisedNetworks?.forEach((c, i) => {
    if (n.kubespan?.enabled && !isCIDR(c))
      ctx.error(
        `${at}.kubespan.filters.excludeAdvertisedNetworks[${i}]`,
        `KubeSpan exclude advertised networks filter is not valid: ${q(c)}`,
      );
  });
  n.kubespan?.filters?.endpoints?.forEach((e, i) => {
    const v = e.replace(/^!/, '');
    if (n.kubespan?.enabled && !isCIDR(v) && !isIPAddress(v))
      ctx.error(`${at}.kubespan.filters.endpoints[${i}]`, `KubeSpan endpoint filter is not valid: ${q(v)}`);
  });
  const mtu = n.kubespan?.mtu;
  if (n.kubespan?.enabled && mtu !== undefined && mtu < 1280)
    ctx.error(`${at}.kubespan.mtu`, 'kubespan link MTU must be at least 1280');

  // links enslaved by a bond or bridge, and which link owns them
  const memberOf = new Map<string, string>();
  n.interfaces?.forEach((dev, i) => {
    const owner = dev.interface ?? `interfaces[${i}]`;
    for (const link of [...(dev.bond?.interfaces ?? []), ...(dev.bridge?.interfaces ?? [])]) {
      const prev = memberOf.get(link);
      if (prev !== undefined && prev !== owner)
        ctx.error(
          `${at}.interfaces[${i}]`,
          `interface ${q(link)} is declared as part of two separate links: ${q(prev)} and ${q(owner)}`,
        );
      memberOf.set(link, owner);
    }
  });
  const seen = new Set<string>();
  n.interfaces?.forEach((dev, i) => {
    const p = `${at}.interfaces[${i}]`;
    if (dev.ignore) return; // upstream skips ignored interfaces entirely
    validateDevice(dev, p, ctx);
    if (dev.interface && memberOf.has(dev.interface) && (dev.dhcp || dev.addresses?.length || dev.vip))
      ctx.error(p, "bonded/bridged interface shouldn't have any addressing methods configured");
    if (dev.interface && seen.has(dev.interface))
      ctx.error(`${p}.interface`, `interface ${q(dev.interface)} is listed twice`);
    if (dev.interface) seen.add(dev.interface);
  });
  if (n.interfaces) validateLinkAddressing(n.interfaces, `${at}.interfaces`, ctx);
}

function validateDevice(d: Device, at: string, ctx: RuleContext): void {
  if (d.interface && d.deviceSelector) ctx.error(at, `interface, deviceSelector: ${EXCLUSIVE}`);
  if (!d.interface && !d.deviceSelector)
    ctx.error(at, 'interface, deviceSelector: required either config section to be set');
  if (d.deviceSelector) validateDeviceSelector(d.deviceSelector, `${at}.deviceSelector`, ctx);
  d.bond?.deviceSelectors?.forEach((s, i) => {
    validateDeviceSelector(s, `${at}.bond.deviceSelectors[${i}]`, ctx);
  });
  if (d.bond && d.bridge)
    ctx.error(at, `interface has both bridge and bond sections set ${q(d.interface ?? '')}: ${EXCLUSIVE}`);
  validateAddresses(d.addresses, `${at}.addresses`, ctx);
  validateCIDRField(d, at, ctx);
  validateRoutes(d.routes, `${at}.routes`, ctx);
  validateMTU(d.mtu, `${at}.mtu`, ctx);
  if (d.bond) validateLegacyBond(d.bond, `${at}.bond`, ctx);
  if (d.bond?.interfaces?.length && d.bond.deviceSelectors?.length)
    ctx.error(
      `${at}.bond`,
      `interface ${q(d.interface ?? '')} has both interfaces and selectors set: ${EXCLUSIVE}`,
    );
  if (d.wireguard) validateLegacyWireguard(d.wireguard, `${at}.wireguard`, ctx);
  const vlanIDs = new Set<number>();
  d.vlans?.forEach((v, i) => {
    validateVlan(v, `${at}.vlans[${i}]`, ctx);
    if (v.vlanId !== undefined && vlanIDs.has(v.vlanId))
      ctx.error(`${at}.vlans[${i}].vlanId`, `duplicate VLAN ID ${v.vlanId}`);
    if (v.vlanId !== undefined) vlanIDs.add(v.vlanId);
  });
  if (d.vip) validateVIP(d.vip.ip, `${at}.vip`, ctx);
  if (d.dhcpOptions && d.dhcp !== true)
    ctx.warn(`${at}.dhcpOptions`, 'dhcpOptions take effect only when dhcp is true');
}

function validateVlan(v: Vlan, at: string, ctx: RuleContext): void {
  if (v.vlanId === undefined || v.vlanId < 1 || v.vlanId > 4094)
    ctx.error(`${at}.vlanId`, `VLAN ID ${v.vlanId ?? 0} is out of range 1-4094`);
  validateAddresses(v.addresses, `${at}.addresses`, ctx);
  validateCIDRField(v, at, ctx, 'vlan');
  validateRoutes(v.routes, `${at}.routes`, ctx);
  validateMTU(v.mtu, `${at}.mtu`, ctx);
  if (v.vip) validateVIP(v.vip.ip, `${at}.vip`, ctx);
}

// 68 is the smallest MTU IPv4 allows (RFC 791), 65535 the largest an IPv4 packet can use
function validateMTU(mtu: number | undefined, at: string, ctx: RuleContext): void {
  if (mtu !== undefined && (mtu < 68 || mtu > 65535)) ctx.error(at, `MTU ${mtu} is out of range 68-65535`);
}

function validateVIP(ip: string | undefined, at: string, ctx: RuleContext): void {
  if (!isControlPlane(ctx)) ctx.error(at, 'virtual (shared) IP is not allowed on non-controlplane nodes');
  if (!ip || !isIPAddress(ip)) ctx.error(`${at}.ip`, `failed to parse ${q(ip ?? '')} as IP address`);
}

/** The legacy `cidr` field: one address, not together with `addresses`. */
function validateCIDRField(
  d: { cidr?: string; addresses?: string[] },
  at: string,
  ctx: RuleContext,
  noun = 'interface',
): void {
  if (d.cidr === undefined) return;
  if (d.addresses?.length) ctx.error(`${at}.cidr`, `${noun} can't have both .cidr and .addresses set`);
  const ok = d.cidr.includes('/') ? isCIDR(d.cidr) : isIPAddress(d.cidr);
  if (!ok) ctx.error(`${at}.cidr`, `${q(d.cidr)}: invalid network address: not a CIDR or an IP address`);
  ctx.warn(`${at}.cidr`, '.cidr is deprecated, please use .addresses');
}

function validateAddresses(addrs: string[] | undefined, at: string, ctx: RuleContext): void {
  addrs?.forEach((a, i) => {
    // an address without a prefix is accepted and gets /32 or /128
    const ok = a.includes('/') ? isCIDR(a) : isIPAddress(a);
    if (!ok) ctx.error(`${at}[${i}]`, `${q(a)}: invalid network address: not a CIDR or an IP address`);
  });
}

function validateRoutes(routes: Route[] | undefined, at: string, ctx: RuleContext): void {
  routes?.forEach((r, i) => {
    const p = `${at}[${i}]`;
    if (r.network && !isCIDR(r.network))
      ctx.error(`${p}.network`, `${q(r.network)}: invalid network address: not a CIDR`);
    if (r.gateway && !isIPAddress(r.gateway))
      ctx.error(`${p}.gateway`, `${q(r.gateway)}: invalid network address`);
    if (r.source && !isIPAddress(r.source))
      ctx.error(`${p}.source`, `${q(r.source)}: invalid network address`);
    if (!r.network && !r.gateway) ctx.error(p, 'either network or gateway should be set');
  });
}
