// NETLINK_ROUTE sockets on src/sys/socket.ts, woken by the FdPoller. NetlinkSocket sends requests and
// dumps and matches replies by sequence number, so any number can be in flight; every wait has a timeout
// and takes an AbortSignal, and nothing is left pending by close(). The kernel answers rtnetlink requests
// inside sendto(2), so replies are usually read at once; the poller is watched only while one is not.
// NetlinkSubscription is a separate socket joined to multicast groups, delivering decoded events to a
// handler or an async iterator; a receive-queue overflow (ENOBUFS) arrives as a 'resync' event.
import { errnoNumber, isSysError, SysError } from '../errno.js';
import { type FdPoller, poller as sharedPoller, type Watch } from '../poller.js';
import {
  AF_NETLINK,
  bind,
  closeFd,
  getsockname,
  recvfrom,
  SO_RCVBUF,
  SO_RCVBUFFORCE,
  SOCK_RAW,
  SOL_SOCKET,
  sendto,
  setsockoptInt,
  socket,
} from '../socket.js';
import * as C from './constants.js';
import { decodeRtnl, type RtnlMessage } from './event.js';
import {
  encodeMessage,
  NetlinkError,
  type NlMessage,
  parseDone,
  parseError,
  parseMessages,
  typeName,
} from './message.js';

const errno = (name: string): number => errnoNumber(name) ?? 0;
const RECV_SIZE = 64 * 1024; // a dump's datagram is at most 32 KiB; one event or reply far less

export interface RequestOptions {
  /** give up after this long (default: the socket's timeoutMs); fails with ETIMEDOUT */
  readonly timeoutMs?: number;
  readonly signal?: AbortSignal;
  /** the operation named in a failure, e.g. 'createLink' (default: the message type, 'RTM_NEWLINK') */
  readonly call?: string;
  /** what the failure message shows in the call's parentheses, e.g. the link's name */
  readonly args?: readonly unknown[];
}

export interface NetlinkSocketOptions {
  readonly poller?: FdPoller;
  /** default wait for a reply or a whole dump (10 s) */
  readonly timeoutMs?: number;
  /** SO_RCVBUF(FORCE) in bytes (default 4 MiB) */
  readonly rcvbuf?: number;
}

/** sockaddrNl encodes struct sockaddr_nl { u16 family; u16 pad; u32 pid; u32 groups }. */
export function sockaddrNl(pid = 0, groups = 0): Buffer {
  const b = Buffer.alloc(C.SIZEOF_SOCKADDR_NL);
  b.writeUInt16LE(AF_NETLINK, 0);
  b.writeUInt32LE(pid >>> 0, 4);
  b.writeUInt32LE(groups >>> 0, 8);
  return b;
}

function setRcvbuf(fd: number, bytes: number): void {
  try {
    setsockoptInt(fd, SOL_SOCKET, SO_RCVBUFFORCE, bytes); // past net.core.rmem_max, with CAP_NET_ADMIN
  } catch {
    setsockoptInt(fd, SOL_SOCKET, SO_RCVBUF, bytes);
  }
}

/** openRoute opens, configures and binds a NETLINK_ROUTE socket; returns the fd and its port id. */
function openRoute(rcvbuf: number, sockopts: readonly number[]): { fd: number; portId: number } {
  const fd = socket(AF_NETLINK, SOCK_RAW, C.NETLINK_ROUTE);
  try {
    setRcvbuf(fd, rcvbuf);
    for (const opt of sockopts) setsockoptInt(fd, C.SOL_NETLINK, opt, 1);
    bind(fd, sockaddrNl());
    return { fd, portId: getsockname(fd).readUInt32LE(4) };
  } catch (e) {
    closeFd(fd);
    throw e;
  }
}

interface Pending {
  readonly dump: boolean;
  readonly call: string;
  readonly args: readonly unknown[];
  readonly replies: NlMessage[];
  interrupted: boolean;
  resolve(replies: NlMessage[]): void;
  reject(e: unknown): void;
  cleanup(): void;
}

/** NetlinkSocket: requests and dumps on one NETLINK_ROUTE socket, matched to replies by seq. */
export class NetlinkSocket {
  readonly #fd: number;
  readonly #poller: FdPoller;
  readonly #timeoutMs: number;
  readonly #pending = new Map<number, Pending>();
  /** the kernel-assigned port id (nlmsg_pid of this socket) */
  readonly portId: number;
  #watch: Watch | undefined;
  #seq = Math.floor(Math.random() * 0x7fffffff);
  #closed = false;

  constructor(opts: NetlinkSocketOptions = {}) {
    this.#poller = opts.poller ?? sharedPoller();
    this.#timeoutMs = opts.timeoutMs ?? 10_000;
    const { fd, portId } = openRoute(opts.rcvbuf ?? 4 << 20, [
      C.NETLINK_EXT_ACK, // errors explained in NLMSGERR_ATTR_MSG
      C.NETLINK_CAP_ACK, // errors do not echo the request's payload
      C.NETLINK_GET_STRICT_CHK, // dump filters (route table, address ifindex) applied by the kernel
    ]);
    this.#fd = fd;
    this.portId = portId;
  }

  get closed(): boolean {
    return this.#closed;
  }

  /** inFlight counts the requests and dumps awaiting their end. */
  get inFlight(): number {
    return this.#pending.size;
  }

  /**
   * request sends one message with NLM_F_REQUEST | NLM_F_ACK added to `flags` and resolves, at the ack,
   * with the replies that came before it (e.g. the link an RTM_GETLINK asked for); a refusal rejects with
   * a NetlinkError naming the errno and carrying the kernel's extended-ack text.
   */
  request(type: number, flags: number, payload: Uint8Array, opts: RequestOptions = {}): Promise<NlMessage[]> {
    return this.#start(type, flags | C.NLM_F_REQUEST | C.NLM_F_ACK, payload, false, opts);
  }

  /**
   * dump sends a NLM_F_DUMP request and resolves with every message of the multipart reply once
   * NLMSG_DONE arrives. A dump the kernel marks inconsistent (NLM_F_DUMP_INTR: the table changed during
   * it) is run again, up to three times, then fails with EINTR.
   */
  async dump(type: number, payload: Uint8Array, opts: RequestOptions = {}): Promise<NlMessage[]> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.#start(type, C.NLM_F_REQUEST | C.NLM_F_DUMP, payload, true, opts);
      } catch (e) {
        if (attempt >= 3 || !isSysError(e, 'EINTR') || opts.signal?.aborted) throw e;
      }
    }
  }

  #nextSeq(): number {
    do this.#seq = (this.#seq + 1) >>> 0;
    while (this.#seq === 0 || this.#pending.has(this.#seq));
    return this.#seq;
  }

  #start(
    type: number,
    flags: number,
    payload: Uint8Array,
    dump: boolean,
    opts: RequestOptions,
  ): Promise<NlMessage[]> {
    const call = opts.call ?? typeName(type);
    const args = opts.args ?? [];
    if (this.#closed)
      return Promise.reject(new NetlinkError(call, errno('ESHUTDOWN'), args, 'the netlink socket is closed'));
    const { signal } = opts;
    if (signal?.aborted) return Promise.reject(signal.reason);
    const seq = this.#nextSeq();
    const timeoutMs = opts.timeoutMs ?? this.#timeoutMs;
    const done = new Promise<NlMessage[]>((resolve, reject) => {
      const timer = setTimeout(
        () =>
          this.#fail(seq, new NetlinkError(call, errno('ETIMEDOUT'), args, `no reply in ${timeoutMs} ms`)),
        timeoutMs,
      );
      const onAbort = () => this.#fail(seq, signal?.reason);
      signal?.addEventListener('abort', onAbort, { once: true });
      this.#pending.set(seq, {
        dump,
        call,
        args,
        replies: [],
        interrupted: false,
        resolve,
        reject,
        cleanup: () => {
          clearTimeout(timer);
          signal?.removeEventListener('abort', onAbort);
        },
      });
    });
    try {
      if (!sendto(this.#fd, encodeMessage(type, flags, seq, payload)))
        this.#fail(seq, new NetlinkError(call, errno('EAGAIN'), args, 'the send buffer is full'));
    } catch (e) {
      this.#fail(seq, e instanceof SysError ? new NetlinkError(call, e.errno, args, 'sendto failed') : e);
    }
    this.#drain();
    return done;
  }

  #fail(seq: number, err: unknown): void {
    const p = this.#pending.get(seq);
    if (!p) return;
    this.#pending.delete(seq);
    p.cleanup();
    p.reject(err);
    this.#rewatch();
  }

  #finish(seq: number, p: Pending): void {
    this.#pending.delete(seq);
    p.cleanup();
    p.resolve(p.replies);
  }

  /** #drain reads what is queued, without waiting, until nothing is awaited (the rest: next time). */
  #drain(): void {
    while (!this.#closed && this.#pending.size > 0) {
      let d: ReturnType<typeof recvfrom>;
      try {
        d = recvfrom(this.#fd, RECV_SIZE);
      } catch (e) {
        // ENOBUFS: replies were dropped, and which is unknown: everything in flight fails, retryable
        const code = e instanceof SysError ? e.errno : errno('EIO');
        for (const [seq, p] of [...this.#pending])
          this.#fail(
            seq,
            new NetlinkError(p.call, code, p.args, 'replies were lost; the request may have been applied'),
          );
        // any error other than ENOBUFS also ends what is in flight, and the next request tries afresh
        if (isSysError(e, 'ENOBUFS')) continue;
        break;
      }
      if (!d) break;
      // a copy of the datagram's exact size: decoded objects keep views into it, not a 64 KiB buffer
      const data = Buffer.from(d.data);
      for (const m of parseMessages(data)) this.#dispatch(m, d.truncated);
    }
    this.#rewatch();
  }

  #dispatch(m: NlMessage, truncated: boolean): void {
    const { seq, type, flags } = m.header;
    const p = this.#pending.get(seq);
    if (!p) return; // a late reply to a request that timed out or was aborted
    if (truncated) {
      this.#fail(seq, new NetlinkError(p.call, errno('EMSGSIZE'), p.args, 'a reply did not fit the buffer'));
      return;
    }
    if (type === C.NLMSG_ERROR) {
      const e = parseError(m);
      if (e.errno === 0) this.#finish(seq, p);
      else this.#fail(seq, new NetlinkError(p.call, e.errno, p.args, e));
    } else if (type === C.NLMSG_DONE) {
      const e = parseDone(m);
      if (e.errno !== 0) this.#fail(seq, new NetlinkError(p.call, e.errno, p.args, e));
      else if (p.interrupted)
        this.#fail(
          seq,
          new NetlinkError(p.call, errno('EINTR'), p.args, 'the dump was interrupted by a change'),
        );
      else this.#finish(seq, p);
    } else if (type === C.NLMSG_OVERRUN) {
      this.#fail(seq, new NetlinkError(p.call, errno('EOVERFLOW'), p.args, 'NLMSG_OVERRUN'));
    } else if (type !== C.NLMSG_NOOP) {
      if (flags & C.NLM_F_DUMP_INTR) p.interrupted = true;
      p.replies.push(m);
    }
  }

  /** watch the descriptor exactly while something is awaited: an idle socket keeps no loop alive */
  #rewatch(): void {
    if (this.#pending.size > 0 && !this.#watch && !this.#closed)
      this.#watch = this.#poller.watch(this.#fd, () => this.#drain());
    else if (this.#pending.size === 0 && this.#watch) {
      this.#watch.close();
      this.#watch = undefined;
    }
  }

  /** close fails whatever is in flight with ESHUTDOWN and closes the descriptor; twice is harmless. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    for (const [seq, p] of [...this.#pending])
      this.#fail(seq, new NetlinkError(p.call, errno('ESHUTDOWN'), p.args, 'the netlink socket was closed'));
    this.#watch?.close();
    this.#watch = undefined;
    closeFd(this.#fd);
  }
}

/** What a subscription delivers: a decoded message, or word that events were lost. */
export type RtnlEvent =
  | RtnlMessage
  /** the receive queue overflowed (ENOBUFS) or the consumer fell behind: re-dump what you track */
  | { readonly kind: 'resync'; readonly reason: string };

/** The groups a network controller watches: links, IPv4/IPv6 addresses and routes. */
export const DEFAULT_GROUPS: readonly number[] = [
  C.RTNLGRP_LINK,
  C.RTNLGRP_IPV4_IFADDR,
  C.RTNLGRP_IPV6_IFADDR,
  C.RTNLGRP_IPV4_ROUTE,
  C.RTNLGRP_IPV6_ROUTE,
];

export interface SubscribeOptions {
  /** RTNLGRP_* numbers (default DEFAULT_GROUPS) */
  readonly groups?: readonly number[];
  readonly poller?: FdPoller;
  /** SO_RCVBUF(FORCE) in bytes (default 8 MiB: a burst of events is absorbed, not dropped) */
  readonly rcvbuf?: number;
  /** events go to this handler as they arrive; without it they queue for the async iterator */
  readonly onEvent?: (e: RtnlEvent) => void;
  /** events queued for a slow iterator before they are dropped for one 'resync' (default 65536) */
  readonly queueLimit?: number;
  /** aborting closes the subscription (an iterator then ends) */
  readonly signal?: AbortSignal;
}

/** NetlinkSubscription: rtnetlink multicast events on their own socket. One consumer at a time. */
export class NetlinkSubscription implements AsyncIterable<RtnlEvent> {
  readonly #fd: number;
  readonly #watch: Watch;
  readonly #onEvent: ((e: RtnlEvent) => void) | undefined;
  readonly #limit: number;
  readonly #queue: RtnlEvent[] = [];
  readonly #signal: AbortSignal | undefined;
  readonly #onAbort = () => this.close();
  #waiter: ((r: IteratorResult<RtnlEvent>) => void) | undefined;
  #closed = false;
  /** events delivered so far (resyncs included) */
  delivered = 0;

  constructor(opts: SubscribeOptions = {}) {
    const { fd } = openRoute(opts.rcvbuf ?? 8 << 20, []);
    try {
      for (const g of opts.groups ?? DEFAULT_GROUPS)
        setsockoptInt(fd, C.SOL_NETLINK, C.NETLINK_ADD_MEMBERSHIP, g);
      this.#watch = (opts.poller ?? sharedPoller()).watch(fd, () => this.#drain());
    } catch (e) {
      closeFd(fd);
      throw e;
    }
    this.#fd = fd;
    this.#onEvent = opts.onEvent;
    this.#limit = opts.queueLimit ?? 65536;
    this.#signal = opts.signal;
    if (opts.signal?.aborted) this.close();
    else opts.signal?.addEventListener('abort', this.#onAbort, { once: true });
  }

  get closed(): boolean {
    return this.#closed;
  }

  #drain(): void {
    while (!this.#closed) {
      let d: ReturnType<typeof recvfrom>;
      try {
        d = recvfrom(this.#fd, RECV_SIZE);
      } catch (e) {
        if (isSysError(e, 'ENOBUFS')) {
          this.#emit({ kind: 'resync', reason: 'the kernel dropped events (ENOBUFS)' });
          continue;
        }
        // nothing else is expected of a bound netlink socket; level-triggered, it would only fire again
        process.emitWarning(`netlink subscription closed: ${(e as Error)?.message ?? e}`, 'NetlinkWarning');
        this.close();
        return;
      }
      if (!d) return;
      if (d.truncated) this.#emit({ kind: 'resync', reason: 'an event did not fit the buffer' });
      for (const m of parseMessages(Buffer.from(d.data))) {
        if (m.header.type === C.NLMSG_DONE || m.header.type === C.NLMSG_NOOP) continue;
        if (m.header.type === C.NLMSG_OVERRUN) this.#emit({ kind: 'resync', reason: 'NLMSG_OVERRUN' });
        else this.#emit(decodeRtnl(m));
      }
    }
  }

  #emit(e: RtnlEvent): void {
    this.delivered++;
    if (this.#onEvent) {
      try {
        this.#onEvent(e);
      } catch (err) {
        process.emitWarning(`netlink event handler: ${(err as Error)?.message ?? err}`, 'NetlinkWarning');
      }
      return;
    }
    if (this.#waiter) {
      const w = this.#waiter;
      this.#waiter = undefined;
      w({ value: e, done: false });
      return;
    }
    if (this.#queue.length >= this.#limit) {
      // the consumer fell behind: what it missed is replaced by one instruction to re-read the state
      this.#queue.length = 0;
      this.#queue.push({ kind: 'resync', reason: `more than ${this.#limit} events queued` });
      return;
    }
    this.#queue.push(e);
  }

  /** next waits for the next event; it resolves done once the subscription is closed. */
  next(): Promise<IteratorResult<RtnlEvent>> {
    const e = this.#queue.shift();
    if (e) return Promise.resolve({ value: e, done: false });
    if (this.#closed) return Promise.resolve({ value: undefined, done: true });
    if (this.#waiter) return Promise.reject(new Error('a netlink subscription has one consumer at a time'));
    return new Promise((resolve) => {
      this.#waiter = resolve;
    });
  }

  [Symbol.asyncIterator](): AsyncIterator<RtnlEvent> {
    return {
      next: () => this.next(),
      return: async () => {
        this.close();
        return { value: undefined, done: true };
      },
    };
  }

  /** close leaves the groups and closes the socket; a waiting iterator ends. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#signal?.removeEventListener('abort', this.#onAbort);
    this.#watch.close();
    closeFd(this.#fd);
    this.#queue.length = 0;
    const w = this.#waiter;
    this.#waiter = undefined;
    w?.({ value: undefined, done: true });
  }
}

/** subscribe opens a subscription to rtnetlink events (links, addresses, routes by default). */
export const subscribe = (opts: SubscribeOptions = {}): NetlinkSubscription => new NetlinkSubscription(opts);
