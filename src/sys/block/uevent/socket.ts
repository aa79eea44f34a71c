// Hotplug events from the kernel: a NETLINK_KOBJECT_UEVENT socket bound to the kernel's group, woken by
// the shared FdPoller as the rtnetlink subscriptions are (no timers: an idle node spends no CPU here).
// Events go to a handler or an async iterator; an overflowing receive queue (ENOBUFS), a cut or an
// unreadable datagram arrive as one 'resync' event: some events were lost, so re-list the devices.
import { isSysError } from '../../errno.js';
import { sockaddrNl } from '../../netlink/index.js';
import { type FdPoller, poller as sharedPoller, type Watch } from '../../poller.js';
import {
  AF_NETLINK,
  bind,
  closeFd,
  recvfrom,
  SO_RCVBUF,
  SO_RCVBUFFORCE,
  SOCK_RAW,
  SOL_SOCKET,
  setsockoptInt,
  socket,
} from '../../socket.js';
import { parseUevent, type Uevent } from './message.js';

export const NETLINK_KOBJECT_UEVENT = 15;
/** The kernel's multicast group; udevd re-broadcasts what it has processed on group 2, not joined here. */
export const UEVENT_KERNEL_GROUP = 1;

// one uevent is at most a path and the kernel's 2 KiB of variables (UEVENT_BUFFER_SIZE)
const RECV_SIZE = 16 * 1024;

export type UeventEvent =
  | { readonly kind: 'uevent'; readonly uevent: Uevent }
  /** events were lost (ENOBUFS, a cut or unreadable datagram, a consumer fallen behind): re-list */
  | { readonly kind: 'resync'; readonly reason: string };

export interface UeventSubscribeOptions {
  readonly poller?: FdPoller;
  /** SO_RCVBUF(FORCE) in bytes (default 64 MiB, as upstream: coldplug announces every device at once) */
  readonly rcvbuf?: number;
  /** only the events this accepts are delivered (isBlockUevent for disks); resyncs always are */
  readonly match?: (u: Uevent) => boolean;
  /** events go to this handler as they arrive; without it they queue for the async iterator */
  readonly onEvent?: (e: UeventEvent) => void;
  /** events queued for a slow iterator before they are dropped for one 'resync' (default 65536) */
  readonly queueLimit?: number;
  /** aborting closes the subscription (an iterator then ends) */
  readonly signal?: AbortSignal;
}

function setRcvbuf(fd: number, bytes: number): void {
  try {
    setsockoptInt(fd, SOL_SOCKET, SO_RCVBUFFORCE, bytes); // past net.core.rmem_max, with CAP_NET_ADMIN
  } catch {
    setsockoptInt(fd, SOL_SOCKET, SO_RCVBUF, bytes);
  }
}

/** UeventSubscription: the kernel's uevents on their own socket. One consumer at a time. */
export class UeventSubscription implements AsyncIterable<UeventEvent> {
  readonly #fd: number;
  readonly #watch: Watch;
  readonly #match: ((u: Uevent) => boolean) | undefined;
  readonly #onEvent: ((e: UeventEvent) => void) | undefined;
  readonly #limit: number;
  readonly #queue: UeventEvent[] = [];
  readonly #signal: AbortSignal | undefined;
  readonly #onAbort = () => this.close();
  #waiter: ((r: IteratorResult<UeventEvent>) => void) | undefined;
  #closed = false;
  /** events delivered so far (resyncs included) */
  delivered = 0;
  /** datagrams passed over: not from the kernel, udevd's, or not matched */
  ignored = 0;

  constructor(opts: UeventSubscribeOptions = {}) {
    const fd = socket(AF_NETLINK, SOCK_RAW, NETLINK_KOBJECT_UEVENT);
    try {
      setRcvbuf(fd, opts.rcvbuf ?? 64 << 20);
      bind(fd, sockaddrNl(0, UEVENT_KERNEL_GROUP));
      this.#watch = (opts.poller ?? sharedPoller()).watch(fd, () => this.#drain());
    } catch (e) {
      closeFd(fd);
      throw e;
    }
    this.#fd = fd;
    this.#match = opts.match;
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
          this.#emit({ kind: 'resync', reason: 'the kernel dropped uevents (ENOBUFS)' });
          continue;
        }
        // nothing else is expected of a bound netlink socket; level-triggered, it would only fire again
        process.emitWarning(`uevent subscription closed: ${(e as Error)?.message ?? e}`, 'UeventWarning');
        this.close();
        return;
      }
      if (!d) return;
      // sockaddr_nl's nl_pid: the kernel sends as port 0, any process as its own non-zero port
      if (d.from.length < 8 || d.from.readUInt32LE(4) !== 0) {
        this.ignored++;
        continue;
      }
      if (d.truncated) {
        this.#emit({ kind: 'resync', reason: 'a uevent did not fit the buffer' });
        continue;
      }
      let u: Uevent | undefined;
      try {
        u = parseUevent(d.data);
      } catch (e) {
        this.#emit({ kind: 'resync', reason: (e as Error).message });
        continue;
      }
      if (!u || (this.#match && !this.#match(u))) this.ignored++;
      else this.#emit({ kind: 'uevent', uevent: u });
    }
  }

  #emit(e: UeventEvent): void {
    this.delivered++;
    if (this.#onEvent) {
      try {
        this.#onEvent(e);
      } catch (err) {
        process.emitWarning(`uevent handler: ${(err as Error)?.message ?? err}`, 'UeventWarning');
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
      // the consumer fell behind: what it missed is replaced by one instruction to re-list the devices
      this.#queue.length = 0;
      this.#queue.push({ kind: 'resync', reason: `more than ${this.#limit} uevents queued` });
      return;
    }
    this.#queue.push(e);
  }

  /** next waits for the next event; it resolves done once the subscription is closed. */
  next(): Promise<IteratorResult<UeventEvent>> {
    const e = this.#queue.shift();
    if (e) return Promise.resolve({ value: e, done: false });
    if (this.#closed) return Promise.resolve({ value: undefined, done: true });
    if (this.#waiter) return Promise.reject(new Error('a uevent subscription has one consumer at a time'));
    return new Promise((resolve) => {
      this.#waiter = resolve;
    });
  }

  [Symbol.asyncIterator](): AsyncIterator<UeventEvent> {
    return {
      next: () => this.next(),
      return: async () => {
        this.close();
        return { value: undefined, done: true };
      },
    };
  }

  /** close stops watching and closes the socket; a waiting iterator ends. Twice is harmless. */
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

/** subscribeUevents opens a subscription to the kernel's uevents (all subsystems unless `match` narrows). */
export const subscribeUevents = (opts: UeventSubscribeOptions = {}): UeventSubscription =>
  new UeventSubscription(opts);
