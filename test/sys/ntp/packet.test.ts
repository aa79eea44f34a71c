// The NTP header codec and the client's checks on a reply: pure, no sockets.
import { describe, expect, it } from 'vitest';
import {
  decodePacket,
  encodePacket,
  isKissOfDeath,
  isNtpError,
  kissCode,
  measure,
  type NtpPacket,
  ntpToUnixNs,
  referenceIdOf,
  unixNsToNtp,
} from '../../../src/sys/ntp/index.js';

const S = 1_000_000_000n;
const now = 1_796_000_000n * S; // 2026-12

const server = (over: Partial<NtpPacket> = {}): NtpPacket => ({
  leap: 0,
  version: 4,
  mode: 4,
  stratum: 2,
  poll: 6,
  precision: -20,
  rootDelay: 0.015625,
  rootDispersion: 0.0078125,
  referenceId: 0x7f7f0101,
  referenceTime: unixNsToNtp(now - 10n * S),
  originTime: 0x0123456789abcdefn,
  receiveTime: unixNsToNtp(now + 5n * S),
  transmitTime: unixNsToNtp(now + 5n * S + 1_000_000n),
  ...over,
});

describe('encodePacket / decodePacket', () => {
  it('lays out the header as RFC 5905 draws it, and reads it back unchanged', () => {
    const p = server({ leap: 1, poll: -3 });
    const b = encodePacket(p);
    expect(b).toHaveLength(48);
    expect(b[0]).toBe(0b01_100_100); // LI 1, VN 4, mode 4
    expect(b[1]).toBe(2);
    expect(b.readInt8(2)).toBe(-3);
    expect(b.readInt8(3)).toBe(-20);
    expect(b.readUInt32BE(4)).toBe(0x0000_0400); // 1/64 s in 16.16
    expect(b.readUInt32BE(8)).toBe(0x0000_0200);
    expect(b.readUInt32BE(12)).toBe(0x7f7f0101);
    expect(b.readBigUInt64BE(24)).toBe(0x0123456789abcdefn);
    expect(decodePacket(b)).toEqual(p);
  });

  it('reads a client request as chrony and ntpd send it (mode 3), ignoring extension fields', () => {
    const b = Buffer.alloc(68);
    b[0] = 0x23; // LI 0, VN 4, mode 3
    b.writeBigUInt64BE(42n, 40);
    const p = decodePacket(b);
    expect([p.leap, p.version, p.mode, p.transmitTime]).toEqual([0, 4, 3, 42n]);
  });

  it('refuses a short datagram and out-of-range fields', () => {
    expect(() => decodePacket(Buffer.alloc(47))).toThrow('short packet (47 bytes)');
    expect(() => encodePacket(server({ mode: 8 }))).toThrow(RangeError);
    // a dispersion beyond 16.16 saturates instead of wrapping to a small value
    expect(decodePacket(encodePacket(server({ rootDispersion: 70_000 }))).rootDispersion).toBeGreaterThan(
      65_535,
    );
  });

  it('spells kiss codes as their letters', () => {
    expect(kissCode(referenceIdOf('RATE'))).toBe('RATE');
    expect(kissCode(0x44454e59)).toBe('DENY');
    expect(kissCode(referenceIdOf('X'))).toBe('X');
  });
});

describe('NTP timestamps', () => {
  it('round-trips Unix nanoseconds exactly, fractions included', () => {
    for (const ns of [0n, 1n, now + 123_456_789n, now + 999_999_999n, -1n, -S / 2n])
      expect(ntpToUnixNs(unixNsToNtp(ns), ns)).toBe(ns);
  });

  it('puts the Unix epoch at 2208988800 s after NTP 0', () => {
    expect(unixNsToNtp(0n)).toBe(2_208_988_800n << 32n);
    expect(unixNsToNtp(S / 2n) & 0xffff_ffffn).toBe(0x8000_0000n);
  });

  it('crosses the 2036 era boundary: a small wrapped timestamp is read as after 2036 near it', () => {
    const eraEnd = ((1n << 32n) - 2_208_988_800n) * S; // 2036-02-07T06:28:16Z
    expect(new Date(Number(eraEnd / 1_000_000n)).toISOString()).toBe('2036-02-07T06:28:16.000Z');
    const after = eraEnd + 10n * S;
    const wire = unixNsToNtp(after);
    expect(wire >> 32n).toBe(10n); // era 1 second 10
    expect(ntpToUnixNs(wire, eraEnd - 60n * S)).toBe(after); // pivot still in era 0
    expect(ntpToUnixNs(unixNsToNtp(eraEnd - 10n * S), eraEnd + 60n * S)).toBe(eraEnd - 10n * S);
    // the same bits near 1900 when the pivot says so
    expect(ntpToUnixNs(wire, -2_208_988_800n * S)).toBe((10n - 2_208_988_800n) * S);
  });
});

describe('measure', () => {
  it('computes offset ((T2−T1)+(T3−T4))/2 and delay (T4−T1)−(T3−T2)', () => {
    // local clock 5 s behind; 20 ms out, 1 ms inside the server, 20 ms back
    const t1 = now - 20_000_000n;
    const t4 = now + 21_000_000n;
    const r = measure('192.0.2.1', 123, server(), t1, t4);
    expect(r.clockOffset).toBe(5n * S);
    expect(r.rtt).toBe(40_000_000n);
    expect(r.time).toBe(now + 5n * S + 1_000_000n);
    expect(r.rootDistance).toBeCloseTo(0.015625, 9);
  });

  it('never reports a negative delay', () => {
    expect(measure('192.0.2.1', 123, server(), now, now).rtt).toBe(0n);
  });

  const reject = (p: Partial<NtpPacket>) => {
    try {
      measure('192.0.2.1', 123, server(p), now, now + S);
    } catch (e) {
      return e;
    }
    throw new Error('accepted');
  };

  it('reports kiss-o-death codes as such', () => {
    const rate = reject({ stratum: 0, leap: 3, referenceId: referenceIdOf('RATE') });
    expect(isKissOfDeath(rate, 'RATE')).toBe(true);
    expect(isKissOfDeath(rate, 'DENY')).toBe(false);
    const deny = reject({ stratum: 0, referenceId: referenceIdOf('DENY') });
    expect(deny).toMatchObject({ code: 'kiss-of-death', kissCode: 'DENY' });
    expect(String(deny)).toContain("kiss-o'-death DENY");
  });

  it.each([
    [{ mode: 5 }, 'bad-mode'],
    [{ mode: 3 }, 'bad-mode'],
    [{ version: 0 }, 'bad-version'],
    [{ stratum: 16 }, 'bad-stratum'],
    [{ leap: 3 as const }, 'unsynchronized'],
    [{ transmitTime: 0n }, 'bad-time'],
    [{ referenceTime: 0n }, 'bad-time'],
    [{ receiveTime: unixNsToNtp(now + 6n * S) }, 'bad-time'],
    [{ referenceTime: unixNsToNtp(now + 60n * S) }, 'bad-time'],
    [{ referenceTime: unixNsToNtp(now - 200_000n * S) }, 'bad-time'],
    [{ rootDelay: 20, rootDispersion: 7 }, 'bad-distance'],
  ] as const)('rejects %o as %s', (p, code) => {
    expect(isNtpError(reject(p), code)).toBe(true);
  });

  it('accepts strata 1 and 15 and the leap-second warnings', () => {
    for (const p of [{ stratum: 1 }, { stratum: 15 }, { leap: 1 as const }, { leap: 2 as const }])
      expect(measure('192.0.2.1', 123, server(p), now, now).stratum).toBe(p.stratum ?? 2);
  });
});
