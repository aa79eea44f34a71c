// Rtnetlink: links, addresses and routes as typed calls over one NetlinkSocket, for the network
// controllers. Links are named by name or ifindex (LinkRef); a failure is a NetlinkError naming the call
// and its subject — `createLink("br0"): EEXIST (file exists)` — with the kernel's explanation if any.
import { AF_INET } from '../socket.js';
import { type Address, type AddressAttrs, decodeAddress, encodeAddress } from './address.js';
import { nlaU32 } from './attr.js';
import * as C from './constants.js';
import { broadcastOf, parsePrefix } from './ip.js';
import {
  type BondInfo,
  type BridgeInfo,
  decodeLink,
  encodeLink,
  type Link,
  type LinkAttrs,
  type LinkInfo,
} from './link.js';
import { isNetlinkError, NetlinkError } from './message.js';
import { decodeRoute, encodeRoute, type Route, type RouteAttrs } from './route.js';
import { NetlinkSocket, type NetlinkSocketOptions, type RequestOptions } from './socket.js';

/** A link by name or ifindex. */
export type LinkRef = string | number;

/** Per-call options: a timeout and an AbortSignal. */
export type CallOptions = Pick<RequestOptions, 'timeoutMs' | 'signal'>;

/** What setLink changes (and createLink sets); absent fields are left alone. */
export interface LinkSettings {
  /** IFF_UP: administratively up or down */
  readonly up?: boolean;
  readonly mtu?: number;
  /** the hardware address, "aa:bb:cc:dd:ee:ff" */
  readonly address?: string;
  /** enslave to this bond or bridge; null releases the link (nomaster) */
  readonly master?: LinkRef | null;
  readonly txqlen?: number;
  readonly alias?: string;
}

export interface VethPeer {
  readonly name: string;
  readonly mtu?: number;
  readonly address?: string;
  /** make the peer in another network namespace (an open /run/netns/* or /proc/PID/ns/net descriptor) */
  readonly netnsFd?: number;
}

export type LinkKindSpec =
  | { readonly kind: 'dummy' }
  | { readonly kind: 'vlan'; readonly parent: LinkRef; readonly id: number; readonly protocol?: number }
  | { readonly kind: 'bond'; readonly bond?: BondInfo }
  | { readonly kind: 'bridge'; readonly bridge?: BridgeInfo }
  | { readonly kind: 'veth'; readonly peer: string | VethPeer };

export type CreateLinkSpec = { readonly name: string } & LinkSettings & LinkKindSpec;

export interface AddressSpec {
  readonly link: LinkRef;
  /** "192.0.2.1/24", "fd00::1/64" */
  readonly address: string;
  /** RT_SCOPE_* (default universe) */
  readonly scope?: number;
  /** IFA_F_* (e.g. IFA_F_NOPREFIXROUTE, IFA_F_NODAD) */
  readonly flags?: number;
  /** an IPv4 broadcast address, or true for the prefix's own ("brd +") */
  readonly broadcast?: string | true;
  readonly label?: string;
  /** the prefix route's metric (IFA_RT_PRIORITY) */
  readonly priority?: number;
  /** lifetimes in seconds (default forever) */
  readonly validLifetime?: number;
  readonly preferredLifetime?: number;
  /** addAddress: update an existing address instead of failing with EEXIST */
  readonly replace?: boolean;
}

export interface RouteSpec {
  /** "10.0.0.0/8", "fd00::/64", or "default" / absent for the default route */
  readonly dst?: string;
  /** AF_INET or AF_INET6; inferred from dst, gateway or prefsrc, else AF_INET */
  readonly family?: number;
  readonly gateway?: string;
  readonly oif?: LinkRef;
  /** the metric */
  readonly priority?: number;
  /** default RT_TABLE_MAIN */
  readonly table?: number;
  /** RT_SCOPE_*: default link for an IPv4 unicast route without a gateway, universe otherwise */
  readonly scope?: number;
  /** RTPROT_* (default RTPROT_BOOT, as iproute2) */
  readonly protocol?: number;
  /** RTN_* (default RTN_UNICAST) */
  readonly type?: number;
  readonly prefsrc?: string;
  readonly src?: string;
  /** RTAX_MTU */
  readonly mtu?: number;
  /** RTNH_F_ONLINK: the gateway is on the link even if no prefix of it says so */
  readonly onlink?: boolean;
}

export interface ListRoutesOptions extends CallOptions {
  /** AF_INET, AF_INET6, or all (default) */
  readonly family?: number;
  /** one table (e.g. RT_TABLE_MAIN), or all (default) */
  readonly table?: number;
}

const ENODEV = 19;
const CREATE = C.NLM_F_CREATE | C.NLM_F_EXCL;
const NO_STATS = nlaU32(C.IFLA_EXT_MASK, C.RTEXT_FILTER_SKIP_STATS);

/** Rtnetlink: the typed layer. It owns its socket when made by open(). */
export class Rtnetlink {
  constructor(readonly socket: NetlinkSocket) {}

  /** open makes a socket of its own; close() closes it. */
  static open(opts?: NetlinkSocketOptions): Rtnetlink {
    return new Rtnetlink(new NetlinkSocket(opts));
  }

  close(): void {
    this.socket.close();
  }

  // --- links ---

  /** listLinks dumps every link (statistics left out). */
  async listLinks(opts: CallOptions = {}): Promise<Link[]> {
    const msgs = await this.socket.dump(C.RTM_GETLINK, Buffer.concat([encodeLink({}), NO_STATS]), {
      ...opts,
      call: 'listLinks',
    });
    return msgs.filter((m) => m.header.type === C.RTM_NEWLINK).map((m) => decodeLink(m.data));
  }

  /** linkByName reads one link by its name (or an altname); none by that name is undefined. */
  linkByName(name: string, opts: CallOptions = {}): Promise<Link | undefined> {
    return this.#getLink({ name }, 'linkByName', [name], opts);
  }

  /** linkByIndex reads one link by ifindex; none is undefined. */
  linkByIndex(index: number, opts: CallOptions = {}): Promise<Link | undefined> {
    return this.#getLink({ index }, 'linkByIndex', [index], opts);
  }

  async #getLink(m: LinkAttrs, call: string, args: unknown[], opts: CallOptions): Promise<Link | undefined> {
    try {
      const msgs = await this.socket.request(C.RTM_GETLINK, 0, Buffer.concat([encodeLink(m), NO_STATS]), {
        ...opts,
        call,
        args,
      });
      const reply = msgs.find((x) => x.header.type === C.RTM_NEWLINK);
      return reply && decodeLink(reply.data);
    } catch (e) {
      if (isNetlinkError(e, 'ENODEV')) return undefined;
      throw e;
    }
  }

  /** index resolves a LinkRef to an ifindex; an unknown name fails with ENODEV naming `call`. */
  async index(ref: LinkRef, call: string, args: readonly unknown[], opts: CallOptions = {}): Promise<number> {
    if (typeof ref === 'number') return ref;
    const l = await this.linkByName(ref, opts);
    if (!l) throw new NetlinkError(call, ENODEV, args, `no link named ${JSON.stringify(ref)}`);
    return l.index;
  }

  async #settings(
    s: LinkSettings,
    call: string,
    args: readonly unknown[],
    opts: CallOptions,
  ): Promise<LinkAttrs> {
    const master =
      s.master === null
        ? 0
        : s.master === undefined
          ? undefined
          : await this.index(s.master, call, args, opts);
    return {
      ...(s.up !== undefined ? { flags: s.up ? C.IFF_UP : 0, change: C.IFF_UP } : {}),
      ...(s.mtu !== undefined ? { mtu: s.mtu } : {}),
      ...(s.address !== undefined ? { address: s.address } : {}),
      ...(master !== undefined ? { master } : {}),
      ...(s.txqlen !== undefined ? { txqlen: s.txqlen } : {}),
      ...(s.alias !== undefined ? { alias: s.alias } : {}),
    };
  }

  /** createLink makes a link of one of the kinds below; one by that name already is EEXIST. */
  async createLink(spec: CreateLinkSpec, opts: CallOptions = {}): Promise<void> {
    const call = 'createLink';
    const args = [spec.name];
    let info: LinkInfo;
    let link: number | undefined;
    switch (spec.kind) {
      case 'dummy':
        info = { kind: 'dummy' };
        break;
      case 'vlan':
        link = await this.index(spec.parent, call, args, opts);
        info = { kind: 'vlan', vlan: { id: spec.id, protocol: spec.protocol ?? C.ETH_P_8021Q } };
        break;
      case 'bond':
        info = { kind: 'bond', ...(spec.bond ? { bond: spec.bond } : { data: [] }) };
        break;
      case 'bridge':
        info = { kind: 'bridge', ...(spec.bridge ? { bridge: spec.bridge } : {}) };
        break;
      case 'veth': {
        const peer = typeof spec.peer === 'string' ? { name: spec.peer } : spec.peer;
        info = { kind: 'veth', veth: { peer } };
        break;
      }
      default:
        throw new TypeError(`createLink: unknown kind ${JSON.stringify((spec as { kind: unknown }).kind)}`);
    }
    const m: LinkAttrs = {
      ...(await this.#settings(spec, call, args, opts)),
      name: spec.name,
      ...(link !== undefined ? { link } : {}),
      info,
    };
    await this.socket.request(C.RTM_NEWLINK, CREATE, encodeLink(m), { ...opts, call, args });
  }

  /** setLink changes a link's state, MTU, hardware address, master or queue length. */
  async setLink(ref: LinkRef, s: LinkSettings, opts: CallOptions = {}): Promise<void> {
    const args = [ref];
    const m: LinkAttrs = { ...(await this.#settings(s, 'setLink', args, opts)), ...refAttrs(ref) };
    await this.socket.request(C.RTM_SETLINK, 0, encodeLink(m), { ...opts, call: 'setLink', args });
  }

  /** deleteLink removes a link (a veth's peer goes with it); an unknown one is ENODEV. */
  async deleteLink(ref: LinkRef, opts: CallOptions = {}): Promise<void> {
    await this.socket.request(C.RTM_DELLINK, 0, encodeLink(refAttrs(ref)), {
      ...opts,
      call: 'deleteLink',
      args: [ref],
    });
  }

  // --- addresses ---

  /** listAddresses dumps addresses, of one family and one link if asked. */
  async listAddresses(opts: CallOptions & { family?: number; link?: LinkRef } = {}): Promise<Address[]> {
    const call = 'listAddresses';
    const index = opts.link === undefined ? 0 : await this.index(opts.link, call, [opts.link], opts);
    const msgs = await this.socket.dump(C.RTM_GETADDR, encodeAddress({ family: opts.family ?? 0, index }), {
      ...opts,
      call,
    });
    return msgs
      .filter((m) => m.header.type === C.RTM_NEWADDR)
      .map((m) => decodeAddress(m.data))
      .filter((a) => (index === 0 || a.index === index) && (!opts.family || a.family === opts.family));
  }

  async #address(
    spec: AddressSpec,
    call: string,
    args: readonly unknown[],
    opts: CallOptions,
  ): Promise<AddressAttrs> {
    const p = parsePrefix(spec.address);
    const index = await this.index(spec.link, call, args, opts);
    const broadcast = spec.broadcast === true ? broadcastOf(p.address, p.prefixLen) : spec.broadcast;
    const lifetimes = spec.validLifetime !== undefined || spec.preferredLifetime !== undefined;
    return {
      family: p.family,
      prefixLen: p.prefixLen,
      scope: spec.scope ?? C.RT_SCOPE_UNIVERSE,
      index,
      local: p.address,
      address: p.address,
      ...(spec.flags !== undefined ? { flags: spec.flags } : {}),
      ...(broadcast !== undefined && p.family === AF_INET ? { broadcast } : {}),
      ...(spec.label !== undefined ? { label: spec.label } : {}),
      ...(spec.priority !== undefined ? { priority: spec.priority } : {}),
      ...(lifetimes
        ? {
            cacheInfo: {
              valid: spec.validLifetime ?? 0xffffffff,
              preferred: spec.preferredLifetime ?? spec.validLifetime ?? 0xffffffff,
              created: 0,
              updated: 0,
            },
          }
        : {}),
    };
  }

  /** addAddress adds an address to a link (EEXIST if it has it, unless `replace`). */
  async addAddress(spec: AddressSpec, opts: CallOptions = {}): Promise<void> {
    const call = 'addAddress';
    const args = [spec.link, spec.address];
    const flags = spec.replace ? C.NLM_F_CREATE | C.NLM_F_REPLACE : CREATE;
    const a = await this.#address(spec, call, args, opts);
    await this.socket.request(C.RTM_NEWADDR, flags, encodeAddress(a), { ...opts, call, args });
  }

  /** deleteAddress removes an address from a link (EADDRNOTAVAIL if it has none such). */
  async deleteAddress(
    spec: Pick<AddressSpec, 'link' | 'address' | 'label'>,
    opts: CallOptions = {},
  ): Promise<void> {
    const call = 'deleteAddress';
    const args = [spec.link, spec.address];
    const a = await this.#address(spec, call, args, opts);
    await this.socket.request(C.RTM_DELADDR, 0, encodeAddress({ ...a, scope: 0 }), { ...opts, call, args });
  }

  // --- routes ---

  /** listRoutes dumps routes, of one family and one table if asked (cached clones left out). */
  async listRoutes(opts: ListRoutesOptions = {}): Promise<Route[]> {
    const filter: RouteAttrs = {
      family: opts.family ?? 0,
      ...(opts.table !== undefined ? { table: opts.table } : {}),
    };
    const msgs = await this.socket.dump(C.RTM_GETROUTE, encodeRoute(filter), { ...opts, call: 'listRoutes' });
    return msgs
      .filter((m) => m.header.type === C.RTM_NEWROUTE)
      .map((m) => decodeRoute(m.data))
      .filter(
        (r) =>
          !(r.flags & C.RTM_F_CLONED) &&
          (opts.table === undefined || r.table === opts.table) &&
          (!opts.family || r.family === opts.family),
      );
  }

  async #route(
    spec: RouteSpec,
    del: boolean,
    call: string,
    args: readonly unknown[],
    opts: CallOptions,
  ): Promise<RouteAttrs> {
    const dst = spec.dst === undefined || spec.dst === 'default' ? undefined : parsePrefix(spec.dst);
    const family =
      spec.family ??
      dst?.family ??
      [spec.gateway, spec.prefsrc, spec.src]
        .filter((x) => x !== undefined)
        .map((x) => parsePrefix(x!).family)[0] ??
      AF_INET;
    const type = spec.type ?? (del ? C.RTN_UNSPEC : C.RTN_UNICAST);
    const oif = spec.oif === undefined ? undefined : await this.index(spec.oif, call, args, opts);
    // iproute2's defaults: a unicast IPv4 route without a gateway is on-link (scope link); a delete
    // matches any scope (RT_SCOPE_NOWHERE) and any protocol
    const scope =
      spec.scope ??
      (del && family === AF_INET
        ? C.RT_SCOPE_NOWHERE
        : family === AF_INET &&
            (type === C.RTN_UNICAST || type === C.RTN_UNSPEC) &&
            spec.gateway === undefined
          ? C.RT_SCOPE_LINK
          : family === AF_INET && (type === C.RTN_LOCAL || type === C.RTN_NAT)
            ? C.RT_SCOPE_HOST
            : C.RT_SCOPE_UNIVERSE);
    return {
      family,
      dstLen: dst?.prefixLen ?? 0,
      table: spec.table ?? C.RT_TABLE_MAIN,
      protocol: spec.protocol ?? (del ? C.RTPROT_UNSPEC : C.RTPROT_BOOT),
      scope,
      type,
      flags: spec.onlink ? C.RTNH_F_ONLINK : 0,
      ...(dst ? { dst: dst.address } : {}),
      ...(spec.src !== undefined ? { src: spec.src } : {}),
      ...(spec.gateway !== undefined ? { gateway: spec.gateway } : {}),
      ...(oif !== undefined ? { oif } : {}),
      ...(spec.priority !== undefined ? { priority: spec.priority } : {}),
      ...(spec.prefsrc !== undefined ? { prefsrc: spec.prefsrc } : {}),
      ...(spec.mtu !== undefined ? { metrics: { mtu: spec.mtu } } : {}),
    };
  }

  async #routeCall(
    call: string,
    type: number,
    flags: number,
    spec: RouteSpec,
    opts: CallOptions,
  ): Promise<void> {
    const args = [spec.dst ?? 'default'];
    const r = await this.#route(spec, type === C.RTM_DELROUTE, call, args, opts);
    await this.socket.request(type, flags, encodeRoute(r), { ...opts, call, args });
  }

  /** addRoute adds a route (EEXIST if one with the same key is there). */
  addRoute(spec: RouteSpec, opts: CallOptions = {}): Promise<void> {
    return this.#routeCall('addRoute', C.RTM_NEWROUTE, CREATE, spec, opts);
  }

  /** replaceRoute adds a route or replaces the one with the same key. */
  replaceRoute(spec: RouteSpec, opts: CallOptions = {}): Promise<void> {
    return this.#routeCall('replaceRoute', C.RTM_NEWROUTE, C.NLM_F_CREATE | C.NLM_F_REPLACE, spec, opts);
  }

  /** deleteRoute removes a route matching the spec (ESRCH if none does). */
  deleteRoute(spec: RouteSpec, opts: CallOptions = {}): Promise<void> {
    return this.#routeCall('deleteRoute', C.RTM_DELROUTE, 0, spec, opts);
  }
}

const refAttrs = (ref: LinkRef): LinkAttrs => (typeof ref === 'number' ? { index: ref } : { name: ref });

/** routePrefix shows a route's destination as iproute2 does: "default" or "10.0.0.0/8". */
export const routePrefix = (r: Route): string =>
  r.dstLen === 0 && !r.dst ? 'default' : `${r.dst}/${r.dstLen}`;
