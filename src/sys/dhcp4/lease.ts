// Lease: what a DHCPACK grants, as plain data, with upstream's defaults where the server is silent.
import type { Message } from './message.js';
import { type ClasslessRoute, decodeOptions } from './options.js';

/** A lease with no lease time lasts 30 minutes, as upstream assumes. */
export const DEFAULT_LEASE_SECONDS = 30 * 60;
/** Renewal never comes sooner than this after binding: upstream's guard against a renew storm. */
export const MIN_RENEW_SECONDS = 5;
/** Option 51's all-ones value: the lease never ends. */
export const INFINITE = 0xffffffff;

export interface Lease {
  readonly address: string;
  readonly prefix: number;
  /** option 3; empty when classless routes were given, which RFC 3442 says replace it */
  readonly routers: readonly string[];
  /** option 121 */
  readonly routes: readonly ClasslessRoute[];
  readonly dns: readonly string[];
  /** option 119 */
  readonly search: readonly string[];
  readonly hostname?: string;
  readonly domain?: string;
  readonly mtu?: number;
  readonly broadcast?: string;
  readonly ntp: readonly string[];
  readonly serverId: string;
  /** seconds; Infinity for a lease that never ends */
  readonly leaseTime: number;
  /** seconds after acquiredAt to renew (RENEWING) and to rebind (REBINDING) */
  readonly t1: number;
  readonly t2: number;
  /** the client's clock (ms) when the REQUEST that won this lease was sent: lease times count from there */
  readonly acquiredAt: number;
}

/** leaseFromAck reads an ACK; a reply without an address or a server identifier is not a lease. */
export function leaseFromAck(ack: Message, acquiredAt: number, serverIdHint?: string): Lease | null {
  const { options: o } = decodeOptions(ack.options);
  const serverId = o.serverId ?? serverIdHint;
  if (ack.yiaddr === '0.0.0.0' || !serverId) return null;
  const leaseTime = o.leaseTime === undefined ? DEFAULT_LEASE_SECONDS : o.leaseTime;
  const [t1, t2] = renewalTimes(leaseTime, o.renewalTime, o.rebindingTime);
  const routes = o.classlessRoutes ?? [];
  return {
    address: ack.yiaddr,
    prefix: prefixOf(o.subnetMask, ack.yiaddr),
    routers: routes.length ? [] : (o.routers ?? []),
    routes,
    dns: o.dns ?? [],
    search: o.domainSearch ?? [],
    ...(o.hostname ? { hostname: o.hostname } : {}),
    ...(o.domain ? { domain: o.domain } : {}),
    ...(o.mtu !== undefined && o.mtu >= 68 ? { mtu: o.mtu } : {}),
    ...(o.broadcast ? { broadcast: o.broadcast } : {}),
    ntp: o.ntp ?? [],
    serverId,
    leaseTime: leaseTime === INFINITE ? Number.POSITIVE_INFINITY : leaseTime,
    t1,
    t2,
    acquiredAt,
  };
}

/**
 * renewalTimes picks T1 and T2: the server's when they are ordered (T1 < T2 < lease), else RFC 2131's
 * 0.5 and 0.875 of the lease; T1 is held to at least MIN_RENEW_SECONDS.
 */
export function renewalTimes(lease: number, t1?: number, t2?: number): [number, number] {
  if (lease === INFINITE) return [Number.POSITIVE_INFINITY, Number.POSITIVE_INFINITY];
  let r1 = t1 !== undefined && t1 < lease ? t1 : lease / 2;
  let r2 = t2 !== undefined && t2 > r1 && t2 < lease ? t2 : lease * 0.875;
  if (r2 <= r1) [r1, r2] = [lease / 2, lease * 0.875];
  r1 = Math.max(r1, Math.min(MIN_RENEW_SECONDS, lease));
  r2 = Math.max(r2, r1);
  return [r1, r2];
}

/** prefixOf counts a mask's bits; no mask, or a non-contiguous one, falls back to the address's class. */
function prefixOf(mask: string | undefined, address: string): number {
  if (mask) {
    const n = mask.split('.').reduce((a, x) => a * 256 + Number(x), 0);
    const bits = n.toString(2).padStart(32, '0');
    if (/^1*0*$/.test(bits)) return bits.indexOf('0') < 0 ? 32 : bits.indexOf('0');
  }
  const first = Number(address.split('.')[0]);
  return first < 128 ? 8 : first < 192 ? 16 : 24;
}
