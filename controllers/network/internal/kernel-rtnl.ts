// The rtnetlink calls of the network controllers, on src/sys/netlink's socket and codec: dumps of links,
// addresses and routes, and raw requests. The spec controllers build their messages themselves, field
// by field as upstream does (flags, kinds, scopes as the spec says), where a typed layer would fill in
// defaults of its own.
import * as C from '../../../src/sys/netlink/constants.js';
import {
  type Address,
  decodeAddress,
  decodeLink,
  decodeRoute,
  encodeAddress,
  encodeLink,
  encodeRoute,
  type Link,
  type NetlinkSocket,
  nlaU32,
  type Route,
} from '../../../src/sys/netlink/index.js';

export type Signal = { readonly signal?: AbortSignal };

const NO_STATS = nlaU32(C.IFLA_EXT_MASK, C.RTEXT_FILTER_SKIP_STATS);

export async function dumpLinks(sock: NetlinkSocket, { signal }: Signal = {}): Promise<Link[]> {
  const msgs = await sock.dump(C.RTM_GETLINK, Buffer.concat([encodeLink({}), NO_STATS]), {
    call: 'dumpLinks',
    ...(signal ? { signal } : {}),
  });
  return msgs.filter((m) => m.header.type === C.RTM_NEWLINK).map((m) => decodeLink(m.data));
}

export async function dumpAddresses(sock: NetlinkSocket, { signal }: Signal = {}): Promise<Address[]> {
  const msgs = await sock.dump(C.RTM_GETADDR, encodeAddress({ family: 0 }), {
    call: 'dumpAddresses',
    ...(signal ? { signal } : {}),
  });
  return msgs.filter((m) => m.header.type === C.RTM_NEWADDR).map((m) => decodeAddress(m.data));
}

/** dumpRoutes lists every table of both families; the kernel's cached clones are left out. */
export async function dumpRoutes(sock: NetlinkSocket, { signal }: Signal = {}): Promise<Route[]> {
  const msgs = await sock.dump(C.RTM_GETROUTE, encodeRoute({ family: 0 }), {
    call: 'dumpRoutes',
    ...(signal ? { signal } : {}),
  });
  return msgs
    .filter((m) => m.header.type === C.RTM_NEWROUTE)
    .map((m) => decodeRoute(m.data))
    .filter((r) => !(r.flags & C.RTM_F_CLONED));
}

/** send is one request acknowledged by the kernel; a refusal rejects with a NetlinkError naming `call`. */
export async function send(
  sock: NetlinkSocket,
  type: number,
  flags: number,
  payload: Buffer,
  call: string,
  args: readonly unknown[],
  { signal }: Signal = {},
): Promise<void> {
  await sock.request(type, flags, payload, { call, args, ...(signal ? { signal } : {}) });
}

export const CREATE = C.NLM_F_CREATE | C.NLM_F_EXCL;

/** qdiscOf reads IFLA_QDISC, which the link decoder keeps among its raw attributes. */
export function qdiscOf(l: Link): string {
  const a = l.unknown.find((x) => x.type === C.IFLA_QDISC);
  return a ? a.data.toString('utf8').replace(/\0.*$/s, '') : '';
}

/** multicastOf reads IFA_MULTICAST, kept raw by the address decoder. */
export function multicastOf(a: Address): Buffer | undefined {
  return a.unknown.find((x) => x.type === C.IFA_MULTICAST)?.data;
}
