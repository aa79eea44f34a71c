// One SNTP exchange against a real chronyd; the spoofing and kiss-o'-death cases put a relay in front of
// it that forwards chronyd's genuine reply, altered or from the wrong address.
import { createSocket, type Socket } from 'node:dgram';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clockGettime } from '../../../src/sys/clock.js';
import {
  decodePacket,
  encodePacket,
  isKissOfDeath,
  isNtpError,
  type NtpPacket,
  query,
  queryAddress,
  referenceIdOf,
  resolveServer,
} from '../../../src/sys/ntp/index.js';
import { type Chronyd, startChronyd } from './chronyd.js';

const S = 1_000_000_000n;
const abs = (v: bigint) => (v < 0n ? -v : v);

let chrony: Chronyd;
beforeAll(async () => {
  chrony = await startChronyd({ stratum: 8 });
});
afterAll(async () => {
  await chrony?.stop();
});

async function udp(address = '127.0.0.1'): Promise<Socket> {
  const s = createSocket('udp4');
  await new Promise<void>((resolve, reject) => {
    s.once('error', reject);
    s.bind(0, address, resolve);
  });
  return s;
}

interface Relay {
  readonly port: number;
  close(): void;
}

/**
 * relay listens on a port of its own, forwards each request to chronyd, and hands chronyd's reply to
 * `answer`, which sends what it likes back through the sockets it is given.
 */
async function relay(
  answer: (
    reply: NtpPacket,
    to: { address: string; port: number },
    socks: { self: Socket; other: Socket; otherHost: Socket },
  ) => void,
): Promise<Relay> {
  const self = await udp();
  const other = await udp(); // same address, another port
  const otherHost = await udp('127.0.0.2'); // another loopback address
  const upstream = await udp();
  let client: { address: string; port: number } | undefined;
  self.on('message', (msg, from) => {
    client = { address: from.address, port: from.port };
    upstream.send(msg, chrony.port, chrony.address);
  });
  upstream.on('message', (msg) => {
    if (client) answer(decodePacket(msg), client, { self, other, otherHost });
  });
  return {
    port: self.address().port,
    close() {
      for (const s of [self, other, otherHost, upstream]) s.close();
    },
  };
}

const send = (s: Socket, p: NtpPacket, to: { address: string; port: number }) =>
  s.send(encodePacket(p), to.port, to.address);

describe('queryAddress against chronyd', () => {
  it('reads chronyd local clock: stratum 8, its local reference id, an offset near zero', async () => {
    const r = await queryAddress(chrony.address, { port: chrony.port });
    expect(r.stratum).toBe(8);
    expect(r.leap).toBe(0);
    expect(r.packet.mode).toBe(4);
    expect(r.packet.referenceId).toBe(0x7f7f0101); // chrony's 127.127.1.1 for a local reference
    // server and client read the same host clock; bounds are generous for a loaded machine
    expect(abs(r.clockOffset)).toBeLessThan(S);
    expect(r.rtt).toBeGreaterThanOrEqual(0n);
    expect(r.rtt).toBeLessThan(5n * S);
    expect(abs(r.time - clockGettime())).toBeLessThan(5n * S);
  });

  it('gives a positive offset to a client whose clock is behind', async () => {
    const behind = 3_600n * S;
    const r = await queryAddress(chrony.address, { port: chrony.port, now: () => clockGettime() - behind });
    expect(abs(r.clockOffset - behind)).toBeLessThan(S);
  });

  it('asks by name, through the resolver', async () => {
    expect(await resolveServer('localhost')).toContain('127.0.0.1');
    const r = await query('localhost', { port: chrony.port, timeoutMs: 2_000 });
    expect(r.address).toBe('127.0.0.1');
  });

  it('reports a name that does not resolve', async () => {
    const e = await query('no-such-host.invalid', { port: chrony.port }).catch((x) => x);
    expect(isNtpError(e, 'dns')).toBe(true);
  });
});

describe('queryAddress bounds', () => {
  it('times out on a server that never answers', async () => {
    const silent = await udp();
    try {
      const e = await queryAddress('127.0.0.1', { port: silent.address().port, timeoutMs: 300 }).catch(
        (x) => x,
      );
      expect(isNtpError(e, 'timeout')).toBe(true);
    } finally {
      silent.close();
    }
  });

  it('stops at once when its signal aborts', async () => {
    const silent = await udp();
    try {
      const ac = new AbortController();
      const pending = queryAddress('127.0.0.1', {
        port: silent.address().port,
        timeoutMs: 60_000,
        signal: ac.signal,
      });
      ac.abort(new Error('stop'));
      await expect(pending).rejects.toThrow('stop');
      await expect(queryAddress('127.0.0.1', { port: 1, signal: ac.signal })).rejects.toThrow('stop');
    } finally {
      silent.close();
    }
  });

  it('refuses a name where an address is required', async () => {
    await expect(queryAddress('localhost')).rejects.toThrow('is not an IP address');
  });
});

describe('queryAddress against forgeries', () => {
  it("ignores replies from another address or port, and takes the server's own", async () => {
    const r = await relay((reply, to, { self, other, otherHost }) => {
      // forgeries that would claim the clock is an hour off, origin and all correct
      const forged = {
        ...reply,
        receiveTime: reply.receiveTime + (3600n << 32n),
        transmitTime: reply.transmitTime + (3600n << 32n),
      };
      send(other, forged, to);
      send(otherHost, forged, to);
      setTimeout(() => send(self, reply, to), 50);
    });
    try {
      const res = await queryAddress('127.0.0.1', { port: r.port, timeoutMs: 3_000 });
      expect(abs(res.clockOffset)).toBeLessThan(S);
      expect(res.port).toBe(r.port);
    } finally {
      r.close();
    }
  });

  it('waits past a reply with the wrong origin, and says so when no other comes', async () => {
    const r = await relay((reply, to, { self }) => {
      send(self, { ...reply, originTime: reply.originTime ^ 1n }, to);
    });
    try {
      const e = await queryAddress('127.0.0.1', { port: r.port, timeoutMs: 500 }).catch((x) => x);
      expect(isNtpError(e, 'origin-mismatch')).toBe(true);
    } finally {
      r.close();
    }
  });

  it.each(['RATE', 'DENY'])("reports a %s kiss-o'-death", async (code) => {
    // chrony 4.3 drops what it will not answer rather than kissing; the relay turns its reply into one
    const r = await relay((reply, to, { self }) => {
      send(self, { ...reply, leap: 3, stratum: 0, referenceId: referenceIdOf(code) }, to);
    });
    try {
      const e = await queryAddress('127.0.0.1', { port: r.port, timeoutMs: 3_000 }).catch((x) => x);
      expect(isKissOfDeath(e, code)).toBe(true);
    } finally {
      r.close();
    }
  });

  it('rejects a server that is not synchronised, or not in server mode', async () => {
    for (const [change, code] of [
      [{ leap: 3 }, 'unsynchronized'],
      [{ mode: 5 }, 'bad-mode'],
    ] as const) {
      const r = await relay((reply, to, { self }) => send(self, { ...reply, ...change }, to));
      try {
        const e = await queryAddress('127.0.0.1', { port: r.port, timeoutMs: 3_000 }).catch((x) => x);
        expect(isNtpError(e, code)).toBe(true);
      } finally {
        r.close();
      }
    }
  });
});
