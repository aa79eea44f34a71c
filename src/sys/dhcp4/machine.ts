// The client state machine of RFC 2131 §4.4: INIT → SELECTING → REQUESTING → BOUND → RENEWING →
// REBINDING, back to INIT on NAK or expiry. Time and the link come in as interfaces (Clock, openSocket),
// so every transition runs in a unit test with a fake clock, and for real in startDhcp4.
import { type Lease, leaseFromAck } from './lease.js';
import { BOOTREPLY, FLAG_BROADCAST, type Message, newMessage } from './message.js';
import { decodeOptions, encodeOptions, MessageType, type Options } from './options.js';
import type { Destination, DhcpSocket, Received, SocketHandlers } from './transport.js';

/** Clock is the machine's time: a monotonic now() in ms, and one-shot timers. */
export interface Clock {
  now(): number;
  setTimer(ms: number, fn: () => void): unknown;
  clearTimer(handle: unknown): void;
}

/** realClock is monotonic but epoch-based, so lease times read as dates and a stepped wall clock is harmless. */
export const realClock: Clock = {
  now: () => performance.timeOrigin + performance.now(),
  setTimer: (ms, fn) => setTimeout(fn, ms),
  clearTimer: (h) => clearTimeout(h as NodeJS.Timeout),
};

export type State = 'init' | 'selecting' | 'requesting' | 'bound' | 'renewing' | 'rebinding' | 'stopped';

/** Why a lease ended: the server refused it (NAK) or it ran out with no server answering. */
export type LeaseLostReason = 'nak' | 'expired';

export interface MachineOptions {
  readonly mac: Uint8Array;
  /** option 61's value; null sends none */
  readonly clientId: Uint8Array | null;
  readonly hostname?: string;
  /** option 55 */
  readonly requestOptions: readonly number[];
  readonly clock: Clock;
  /** [0, 1): transaction ids and backoff jitter */
  readonly random: () => number;
  readonly openSocket: (h: SocketHandlers) => DhcpSocket;
  onLease(lease: Lease): void;
  onLeaseLost(reason: LeaseLostReason, lease: Lease): void;
  log(msg: string): void;
}

/** Sends of one DISCOVER or REQUEST before the exchange starts over with a new transaction. */
export const MAX_ATTEMPTS = 5;
/** RFC 2131 §4.4.5: retransmissions while RENEWING and REBINDING come no closer than this. */
const MIN_RENEW_RETRY_MS = 60_000;
/** option 57: what we can take, IP and UDP headers included */
const MAX_MESSAGE_SIZE = 1500;

/** backoffMs is RFC 2131 §4.1's delay before retransmission `attempt` (0-based): 4 s doubling to 64 s, ±1 s. */
export const backoffMs = (attempt: number, random: () => number): number =>
  Math.min(4000 * 2 ** attempt, 64_000) + Math.round((random() * 2 - 1) * 1000);

interface Transaction {
  readonly xid: number;
  /** when the exchange began, for the secs field */
  readonly startedAt: number;
  attempt: number;
  /** when the last REQUEST went out: a lease won by it counts from here */
  sentAt: number;
  /** secs of the last DISCOVER, which its REQUEST must repeat (RFC 2131 §4.4.1) */
  discoverSecs: number;
}

export class Dhcp4Machine {
  #state: State = 'init';
  #lease: Lease | undefined;
  #serverMac: Uint8Array | undefined;
  #offer: { address: string; serverId: string } | undefined;
  #tx: Transaction | undefined;
  #sock: DhcpSocket | undefined;
  #timer: unknown;
  #hostname: string | undefined;
  /** the last address held, asked for again in the next DISCOVER (option 50) */
  #previous: string | undefined;

  constructor(private readonly o: MachineOptions) {
    this.#hostname = o.hostname;
  }

  get state(): State {
    return this.#state;
  }

  get lease(): Lease | undefined {
    return this.#lease;
  }

  /** start begins in INIT: a DISCOVER goes out at once. */
  start(): void {
    if (this.#state !== 'init') throw new Error(`DHCP client already ${this.#state}`);
    this.#discover();
  }

  /**
   * setHostname changes the name sent in option 12. A different name forgets the lease and starts a new
   * DISCOVER, as upstream does: servers update their records of a name reliably only then.
   */
  setHostname(name: string | undefined): void {
    if (name === this.#hostname || this.#state === 'stopped') return;
    this.#hostname = name;
    this.o.log(`hostname now ${name ?? '(none)'}: restarting discovery`);
    if (this.#lease) this.#previous = this.#lease.address;
    this.#lease = undefined;
    this.#discover();
  }

  /** stop ends the client; with `release` a held lease is given back first (DHCPRELEASE, sent once). */
  stop(release = false): void {
    if (this.#state === 'stopped') return;
    const lease = this.#lease;
    if (release && lease && this.#serverMac) {
      try {
        const m = this.#message(
          MessageType.Release,
          { xid: this.#newXid(), ciaddr: lease.address },
          {
            serverId: lease.serverId,
          },
        );
        this.#open().send(m, { ip: lease.serverId, mac: this.#serverMac }, lease.address);
        this.o.log(`released ${lease.address} to ${lease.serverId}`);
      } catch (e) {
        this.o.log(`release failed: ${(e as Error).message}`);
      }
    }
    this.#state = 'stopped';
    this.#clearTimer();
    this.#close();
    this.#lease = undefined;
  }

  // --- transitions

  #discover(): void {
    this.#state = 'selecting';
    this.#offer = undefined;
    this.#tx = this.#newTransaction();
    this.#sendDiscover();
  }

  #sendDiscover(): void {
    const m = this.#message(
      MessageType.Discover,
      { flags: FLAG_BROADCAST },
      {
        ...(this.#previous ? { requestedIp: this.#previous } : {}),
        ...this.#asking(),
      },
    );
    this.#tx!.discoverSecs = m.secs;
    this.#send(m, { broadcast: true }, '0.0.0.0');
    this.#retransmitAfter(backoffMs(this.#tx!.attempt, this.o.random));
  }

  #sendRequest(): void {
    const tx = this.#tx!;
    tx.sentAt = this.o.clock.now();
    const offer = this.#offer!;
    const m = this.#message(
      MessageType.Request,
      { flags: FLAG_BROADCAST, secs: tx.discoverSecs },
      {
        requestedIp: offer.address,
        serverId: offer.serverId,
        ...this.#asking(),
      },
    );
    this.#send(m, { broadcast: true }, '0.0.0.0');
    this.#retransmitAfter(backoffMs(tx.attempt, this.o.random));
  }

  /** sendExtend sends RENEWING's unicast REQUEST or REBINDING's broadcast one (ciaddr, no 50 or 54). */
  #sendExtend(): void {
    const lease = this.#lease!;
    const tx = this.#tx!;
    tx.sentAt = this.o.clock.now();
    const m = this.#message(MessageType.Request, { ciaddr: lease.address }, this.#asking());
    const to: Destination =
      this.#state === 'renewing' && this.#serverMac
        ? { ip: lease.serverId, mac: this.#serverMac }
        : { broadcast: true };
    this.#send(m, to, lease.address);
    // §4.4.5: half the time left to T2 (renewing) or to expiry (rebinding), down to 60 s
    const until = this.#state === 'renewing' ? this.#at(lease.t2) : this.#at(lease.leaseTime);
    const left = until - this.o.clock.now();
    this.#retransmitAfter(Math.min(left, Math.max(left / 2, MIN_RENEW_RETRY_MS)));
  }

  #onTimer(): void {
    const now = this.o.clock.now();
    switch (this.#state) {
      case 'selecting':
      case 'requesting': {
        const tx = this.#tx!;
        if (++tx.attempt >= MAX_ATTEMPTS) {
          this.o.log(`no ${this.#state === 'selecting' ? 'offer' : 'answer to the request'}: starting over`);
          this.#discover();
          return;
        }
        if (this.#state === 'selecting') this.#sendDiscover();
        else this.#sendRequest();
        return;
      }
      case 'bound':
        this.#state = 'renewing';
        this.#tx = this.#newTransaction();
        this.#sendExtend();
        return;
      case 'renewing':
      case 'rebinding': {
        const lease = this.#lease!;
        if (now >= this.#at(lease.leaseTime)) {
          this.#lost('expired');
          return;
        }
        if (this.#state === 'renewing' && now >= this.#at(lease.t2)) {
          this.o.log(`no answer from ${lease.serverId}: rebinding`);
          this.#state = 'rebinding';
        }
        this.#sendExtend();
        return;
      }
    }
  }

  #onMessage(r: Received): void {
    const m = r.message;
    const tx = this.#tx;
    if (!tx || m.op !== BOOTREPLY || m.xid !== tx.xid || !sameBytes(m.chaddr, this.o.mac)) return;
    const { options } = decodeOptions(m.options);
    const type = options.messageType;
    switch (this.#state) {
      case 'selecting':
        // the first usable offer wins: waiting for more costs boot time and one server is the norm
        if (type !== MessageType.Offer || !options.serverId || m.yiaddr === '0.0.0.0') return;
        this.#offer = { address: m.yiaddr, serverId: options.serverId };
        this.#state = 'requesting';
        tx.attempt = 0;
        this.#sendRequest();
        return;
      case 'requesting':
        // another server's answer is not for the request we sent (RFC 2131 §4.3.2)
        if (options.serverId && options.serverId !== this.#offer!.serverId) return;
        if (type === MessageType.Ack) {
          this.#bind(m, r, this.#offer!.serverId);
          return;
        }
        if (type === MessageType.Nak) {
          this.o.log(`${this.#offer!.serverId} refused ${this.#offer!.address}: ${nakText(m)}`);
          this.#discover();
          return;
        }
        return;
      case 'renewing':
      case 'rebinding':
        if (type === MessageType.Ack) {
          this.#bind(m, r, this.#lease!.serverId);
          return;
        }
        if (type === MessageType.Nak) {
          this.#lost('nak', nakText(m));
          return;
        }
        return;
    }
  }

  #bind(ack: Message, r: Received, serverId: string): void {
    const lease = leaseFromAck(ack, this.#tx!.sentAt, serverId);
    if (!lease) {
      this.o.log(`ignoring an ACK without an address from ${r.srcIp}`);
      return;
    }
    this.#clearTimer();
    this.#close();
    this.#state = 'bound';
    this.#lease = lease;
    this.#previous = lease.address;
    this.#tx = undefined;
    // the server's own MAC, or its relay's: the next hop a unicast RENEW must go to
    this.#serverMac = r.srcMac;
    if (Number.isFinite(lease.t1))
      this.#timer = this.o.clock.setTimer(Math.max(0, this.#at(lease.t1) - this.o.clock.now()), () =>
        this.#onTimer(),
      );
    this.o.onLease(lease);
  }

  #lost(reason: LeaseLostReason, detail?: string): void {
    const lease = this.#lease!;
    this.o.log(`lease of ${lease.address} lost: ${reason}${detail ? ` (${detail})` : ''}`);
    this.#lease = undefined;
    this.#discover();
    this.o.onLeaseLost(reason, lease);
  }

  // --- helpers

  /** at is a lease-relative time (s) as a clock time (ms). */
  #at(seconds: number): number {
    return this.#lease!.acquiredAt + seconds * 1000;
  }

  #asking(): Options {
    return {
      parameterList: [...this.o.requestOptions],
      maxMessageSize: MAX_MESSAGE_SIZE,
      ...(this.#hostname ? { hostname: this.#hostname } : {}),
    };
  }

  #message(type: number, fields: Partial<Message>, options: Options): Message {
    const tx = this.#tx;
    return newMessage({
      xid: tx?.xid ?? 0,
      chaddr: this.o.mac,
      secs: tx ? Math.floor((this.o.clock.now() - tx.startedAt) / 1000) : 0,
      ...fields,
      options: encodeOptions({
        messageType: type,
        ...(this.o.clientId ? { clientId: this.o.clientId } : {}),
        ...options,
      }),
    });
  }

  #newXid(): number {
    return Math.floor(this.o.random() * 0x100000000) >>> 0;
  }

  #newTransaction(): Transaction {
    const now = this.o.clock.now();
    return { xid: this.#newXid(), startedAt: now, attempt: 0, sentAt: now, discoverSecs: 0 };
  }

  #retransmitAfter(ms: number): void {
    this.#clearTimer();
    this.#timer = this.o.clock.setTimer(Math.max(0, ms), () => this.#onTimer());
  }

  #clearTimer(): void {
    if (this.#timer !== undefined) this.o.clock.clearTimer(this.#timer);
    this.#timer = undefined;
  }

  /** the socket is open only while an exchange runs */
  #open(): DhcpSocket {
    this.#sock ??= this.o.openSocket({
      onMessage: (r) => this.#onMessage(r),
      onDrop: (why) => this.o.log(`dropped a packet: ${why}`),
    });
    return this.#sock;
  }

  #close(): void {
    this.#sock?.close();
    this.#sock = undefined;
  }

  #send(m: Message, to: Destination, src: string): void {
    try {
      if (!this.#open().send(m, to, src)) this.o.log('send queue full: left to the retransmission');
    } catch (e) {
      // a link that is down or gone: the retransmission timer tries again
      this.o.log(`send failed: ${(e as Error).message}`);
    }
  }
}

const sameBytes = (a: Uint8Array, b: Uint8Array): boolean =>
  a.length === b.length && a.every((x, i) => x === b[i]);

// option 56, the server's message, is not typed: it is only ever shown
const nakText = (m: Message): string => m.options.get(56)?.toString('utf8') ?? 'no message';
