// The state machine alone, on a fake clock and a fake link; client.test.ts runs the same paths on dnsmasq.
import { describe, expect, it } from 'vitest';
import type { Lease } from '../../../src/sys/dhcp4/lease.js';
import {
  backoffMs,
  type Clock,
  Dhcp4Machine,
  type LeaseLostReason,
  MAX_ATTEMPTS,
} from '../../../src/sys/dhcp4/machine.js';
import { BOOTREPLY, FLAG_BROADCAST, type Message, newMessage } from '../../../src/sys/dhcp4/message.js';
import { decodeOptions, encodeOptions, MessageType, type Options } from '../../../src/sys/dhcp4/options.js';
import type { Destination } from '../../../src/sys/dhcp4/transport.js';

const MAC = Buffer.from('020000000001', 'hex');
const SERVER_MAC = Buffer.from('020000000099', 'hex');

class FakeClock implements Clock {
  t = 1_000_000;
  #timers = new Map<number, { at: number; fn: () => void }>();
  #next = 0;
  now = () => this.t;
  setTimer = (ms: number, fn: () => void) => {
    this.#timers.set(++this.#next, { at: this.t + ms, fn });
    return this.#next;
  };
  clearTimer = (h: unknown) => void this.#timers.delete(h as number);
  get pending(): number[] {
    return [...this.#timers.values()].map((x) => x.at - this.t);
  }
  /** advance moves time on, firing each timer that falls due, in order */
  advance(ms: number): void {
    const end = this.t + ms;
    for (;;) {
      const due = [...this.#timers].filter(([, x]) => x.at <= end).sort((a, b) => a[1].at - b[1].at)[0];
      if (!due) break;
      this.#timers.delete(due[0]);
      this.t = due[1].at;
      due[1].fn();
    }
    this.t = end;
  }
}

interface Sent {
  m: Message;
  o: Options;
  to: Destination;
  src: string;
}

function setup(extra: { hostname?: string } = {}) {
  const clock = new FakeClock();
  const sent: Sent[] = [];
  const leases: Lease[] = [];
  const lost: LeaseLostReason[] = [];
  let deliver: ((m: Message) => void) | undefined;
  let opens = 0;
  let draws = 0;
  const machine = new Dhcp4Machine({
    mac: MAC,
    clientId: Buffer.concat([Buffer.from([1]), MAC]),
    requestOptions: [1, 3, 6],
    clock,
    // near 0.5: no jitter, so the backoff is exact, yet each transaction id differs
    random: () => 0.5 + (draws++ % 1000) * 1e-7,
    openSocket: (h) => {
      opens++;
      deliver = (message) => h.onMessage({ message, srcIp: '192.0.2.1', srcMac: SERVER_MAC });
      return {
        send: (m, to, src) => {
          sent.push({ m, o: decodeOptions(m.options).options, to, src });
          return true;
        },
        close: () => {
          deliver = undefined;
        },
      };
    },
    onLease: (l) => leases.push(l),
    onLeaseLost: (r) => lost.push(r),
    log: () => {},
    ...extra,
  });
  const reply = (type: number, o: Options = {}, fields: Partial<Message> = {}) => {
    const last = sent.at(-1)!.m;
    const m = newMessage({ xid: last.xid, chaddr: MAC, op: BOOTREPLY, yiaddr: '192.0.2.10', ...fields });
    m.options = encodeOptions({ messageType: type, serverId: '192.0.2.1', ...o });
    expect(deliver, 'the socket is open for a reply').toBeDefined();
    deliver!(m);
  };
  const ACK = { leaseTime: 120, renewalTime: 60, rebindingTime: 105, subnetMask: '255.255.255.0' };
  const bind = () => {
    machine.start();
    reply(MessageType.Offer);
    reply(MessageType.Ack, ACK);
  };
  return { clock, sent, leases, lost, machine, reply, bind, ACK, opens: () => opens, open: () => !!deliver };
}

describe('DHCPv4 client state machine', () => {
  it('goes DISCOVER → OFFER → REQUEST → ACK, one xid, secs counting, then closes the socket', () => {
    const s = setup();
    s.machine.start();
    expect(s.machine.state).toBe('selecting');
    const d = s.sent[0]!;
    expect(d.to).toEqual({ broadcast: true });
    expect(d.src).toBe('0.0.0.0');
    expect(d.m.flags).toBe(FLAG_BROADCAST);
    expect(d.o).toMatchObject({
      messageType: MessageType.Discover,
      parameterList: [1, 3, 6],
      maxMessageSize: 1500,
    });
    expect(Buffer.from(d.o.clientId!)).toEqual(Buffer.from('01020000000001', 'hex'));
    s.clock.advance(4000); // the first retransmission: 4 s into the exchange
    expect(s.sent[1]!.m.secs).toBe(4);
    s.clock.advance(2500);
    s.reply(MessageType.Offer);
    expect(s.machine.state).toBe('requesting');
    const r = s.sent[2]!;
    expect(r.m.xid).toBe(d.m.xid);
    expect(r.m.secs).toBe(4); // the answered DISCOVER's, as RFC 2131 §4.4.1 asks
    expect(r.o).toMatchObject({
      messageType: MessageType.Request,
      requestedIp: '192.0.2.10',
      serverId: '192.0.2.1',
    });
    expect(r.m.ciaddr).toBe('0.0.0.0');
    s.reply(MessageType.Ack, s.ACK);
    expect(s.machine.state).toBe('bound');
    expect(s.leases).toHaveLength(1);
    expect(s.leases[0]).toMatchObject({
      address: '192.0.2.10',
      prefix: 24,
      t1: 60,
      t2: 105,
      acquiredAt: s.clock.t,
    });
    expect(s.open()).toBe(false);
    expect(s.opens()).toBe(1);
    expect(s.clock.pending).toEqual([60_000]);
  });

  it('retransmits with 4, 8, 16, 32, 64 s backoff, then starts a new transaction', () => {
    const s = setup();
    s.machine.start();
    const gaps: number[] = [];
    for (let i = 1; i <= MAX_ATTEMPTS; i++) {
      gaps.push(s.clock.pending[0]!);
      s.clock.advance(s.clock.pending[0]!);
    }
    expect(gaps).toEqual([4000, 8000, 16_000, 32_000, 64_000]);
    expect(s.sent).toHaveLength(MAX_ATTEMPTS + 1);
    expect(new Set(s.sent.slice(0, MAX_ATTEMPTS).map((x) => x.m.xid)).size).toBe(1);
    expect(s.sent[MAX_ATTEMPTS]!.m.xid).not.toBe(s.sent[0]!.m.xid);
    expect(s.sent[MAX_ATTEMPTS]!.m.secs).toBe(0);
    expect(s.sent[MAX_ATTEMPTS - 1]!.m.secs).toBe(60);
  });

  it('keeps the backoff within RFC 2131’s ±1 s, capped at 64 s', () => {
    expect(backoffMs(0, () => 0)).toBe(3000);
    expect(backoffMs(0, () => 0.999999)).toBe(5000);
    expect(backoffMs(9, () => 0.999999)).toBe(65_000);
  });

  it('ignores replies that are not for this transaction', () => {
    const s = setup();
    s.machine.start();
    s.reply(MessageType.Offer, {}, { xid: 1 });
    s.reply(MessageType.Offer, {}, { chaddr: SERVER_MAC });
    s.reply(MessageType.Offer, {}, { op: 1 });
    s.reply(MessageType.Ack);
    expect(s.machine.state).toBe('selecting');
    s.reply(MessageType.Offer);
    s.reply(MessageType.Ack, {}, { yiaddr: '0.0.0.0' });
    s.reply(MessageType.Ack, { serverId: '192.0.2.99' }); // another server's
    expect(s.machine.state).toBe('requesting');
  });

  it('renews at T1 by unicast to the server’s MAC, rebinds at T2 by broadcast, then loses the lease', () => {
    const s = setup();
    s.bind();
    s.clock.advance(60_000);
    expect(s.machine.state).toBe('renewing');
    const renew = s.sent.at(-1)!;
    expect(renew.to).toEqual({ ip: '192.0.2.1', mac: SERVER_MAC });
    expect(renew.src).toBe('192.0.2.10');
    expect(renew.m.ciaddr).toBe('192.0.2.10');
    expect(renew.m.flags).toBe(0);
    expect(renew.o.requestedIp).toBeUndefined();
    expect(renew.o.serverId).toBeUndefined();
    expect(renew.m.xid).not.toBe(s.sent[0]!.m.xid);
    // no retransmission closer than 60 s: the next wake is T2
    expect(s.clock.pending).toEqual([45_000]);
    s.clock.advance(45_000);
    expect(s.machine.state).toBe('rebinding');
    expect(s.sent.at(-1)!.to).toEqual({ broadcast: true });
    expect(s.sent.at(-1)!.m.ciaddr).toBe('192.0.2.10');
    expect(s.clock.pending).toEqual([15_000]);
    s.clock.advance(15_000);
    expect(s.lost).toEqual(['expired']);
    expect(s.machine.lease).toBeUndefined();
    expect(s.machine.state).toBe('selecting');
    expect(s.sent.at(-1)!.o).toMatchObject({ messageType: MessageType.Discover, requestedIp: '192.0.2.10' });
  });

  it('takes a renewal’s ACK as a refreshed lease counted from the REQUEST', () => {
    const s = setup();
    s.bind();
    s.clock.advance(60_000);
    const sentAt = s.clock.t;
    s.clock.advance(300);
    s.reply(MessageType.Ack, { ...s.ACK, leaseTime: 200, renewalTime: 100, rebindingTime: 175 });
    expect(s.machine.state).toBe('bound');
    expect(s.leases).toHaveLength(2);
    expect(s.leases[1]).toMatchObject({ leaseTime: 200, acquiredAt: sentAt });
    expect(s.clock.pending).toEqual([100_000 - 300]);
    expect(s.open()).toBe(false);
  });

  it('starts over on a NAK: reported as lost when a lease was held, not while requesting', () => {
    const s = setup();
    s.machine.start();
    s.reply(MessageType.Offer);
    s.reply(MessageType.Nak);
    expect(s.machine.state).toBe('selecting');
    expect(s.lost).toEqual([]);
    s.reply(MessageType.Offer);
    s.reply(MessageType.Ack, s.ACK);
    s.clock.advance(60_000);
    s.reply(MessageType.Nak);
    expect(s.lost).toEqual(['nak']);
    expect(s.machine.state).toBe('selecting');
  });

  it('releases by unicast on stop when asked, once, and leaves no timer or socket behind', () => {
    const s = setup();
    s.bind();
    const n = s.sent.length;
    s.machine.stop(true);
    expect(s.sent).toHaveLength(n + 1);
    const rel = s.sent.at(-1)!;
    expect(rel.o).toMatchObject({ messageType: MessageType.Release, serverId: '192.0.2.1' });
    expect(rel.m.ciaddr).toBe('192.0.2.10');
    expect(rel.to).toEqual({ ip: '192.0.2.1', mac: SERVER_MAC });
    expect(s.machine.state).toBe('stopped');
    expect(s.clock.pending).toEqual([]);
    expect(s.open()).toBe(false);
    s.machine.stop(true);
    expect(s.sent).toHaveLength(n + 1);

    const t = setup();
    t.bind();
    const m = t.sent.length;
    t.machine.stop();
    expect(t.sent).toHaveLength(m);
  });

  it('sends its hostname, and a new one forgets the lease and discovers again', () => {
    const s = setup({ hostname: 'node-a' });
    s.bind();
    expect(s.sent[0]!.o.hostname).toBe('node-a');
    s.machine.setHostname('node-a');
    expect(s.machine.state).toBe('bound');
    s.machine.setHostname('node-b');
    expect(s.machine.state).toBe('selecting');
    expect(s.machine.lease).toBeUndefined();
    expect(s.lost).toEqual([]);
    expect(s.sent.at(-1)!.o).toMatchObject({ hostname: 'node-b', requestedIp: '192.0.2.10' });
  });
});
