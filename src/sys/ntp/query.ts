// One SNTP exchange (RFC 4330; RFC 5905 client mode) over a dgram socket, and the checks a client makes
// before trusting the answer. Offset and delay come from the four timestamps (T1 sent, T2 server receive,
// T3 server transmit, T4 received); T4 is T1 plus monotonic elapsed time, so a clock step mid-query is
// harmless.
import { randomBytes } from 'node:crypto';
import { createSocket, type RemoteInfo } from 'node:dgram';
import { isIP } from 'node:net';
import { clockGettime } from '../clock.js';
import { NtpError } from './errors.js';
import {
  decodePacket,
  encodePacket,
  kissCode,
  LEAP_NOT_IN_SYNC,
  type Leap,
  MODE_CLIENT,
  MODE_SERVER,
  type NtpPacket,
  ntpToUnixNs,
  PACKET_SIZE,
} from './packet.js';
import { resolveServer } from './resolve.js';

export const NTP_PORT = 123;
export const DEFAULT_QUERY_TIMEOUT_MS = 5_000;
const MAX_STRATUM = 15;
/** RFC 5905 MAXDISP: a root distance beyond it cannot discipline a clock */
const MAX_DISTANCE_S = 16;
/** a server whose reference is older than the longest poll (2^17 s, ~36 h) has lost its own source */
const MAX_FRESHNESS_NS = 2n ** 17n * 1_000_000_000n;

export interface QueryOptions {
  port?: number;
  /** the whole exchange, DNS excluded; at most this long however the server behaves */
  timeoutMs?: number;
  signal?: AbortSignal;
  version?: 3 | 4;
  /** the local clock read as T1, Unix ns (the real CLOCK_REALTIME unless a test shifts it) */
  now?: () => bigint;
}

/** NtpResponse is a validated answer; durations are bigint nanoseconds. */
export interface NtpResponse {
  readonly address: string;
  readonly port: number;
  readonly packet: NtpPacket;
  /** the server's transmit time (T3), Unix ns */
  readonly time: bigint;
  /** how far the local clock is behind the server's: add it to correct the clock */
  readonly clockOffset: bigint;
  /** round-trip delay minus the server's processing time, never negative */
  readonly rtt: bigint;
  readonly stratum: number;
  readonly leap: Leap;
  /** root delay / 2 + root dispersion, seconds */
  readonly rootDistance: number;
}

/** query resolves `server` and asks its addresses in turn; the first valid answer wins. */
export async function query(server: string, opts: QueryOptions = {}): Promise<NtpResponse> {
  const addresses = await resolveServer(server, opts.signal ? { signal: opts.signal } : {});
  let last: unknown;
  for (const address of addresses) {
    try {
      return await queryAddress(address, opts);
    } catch (e) {
      if (opts.signal?.aborted) throw e;
      last = e;
    }
  }
  throw last;
}

/** queryAddress does one exchange with an IP address; it ignores datagrams from any other address. */
export function queryAddress(address: string, opts: QueryOptions = {}): Promise<NtpResponse> {
  const family = isIP(address);
  if (family === 0)
    return Promise.reject(new TypeError(`ntp: ${JSON.stringify(address)} is not an IP address`));
  const port = opts.port ?? NTP_PORT;
  const timeoutMs = opts.timeoutMs ?? DEFAULT_QUERY_TIMEOUT_MS;
  const now = opts.now ?? (() => clockGettime());
  const { signal } = opts;
  if (signal?.aborted) return Promise.reject(signal.reason);

  // a random transmit timestamp: it leaks nothing about our clock and a blind spoofer cannot guess it
  const cookie = randomBytes(8).readBigUInt64BE();
  const request = encodePacket({
    leap: 0,
    version: opts.version ?? 4,
    mode: MODE_CLIENT,
    stratum: 0,
    poll: 0,
    precision: 0,
    rootDelay: 0,
    rootDispersion: 0,
    referenceId: 0,
    referenceTime: 0n,
    originTime: 0n,
    receiveTime: 0n,
    transmitTime: cookie,
  });

  return new Promise<NtpResponse>((resolve, reject) => {
    const sock = createSocket(family === 6 ? 'udp6' : 'udp4');
    let t1 = 0n;
    let sentAt = 0n;
    let mismatched = 0;
    let done = false;
    const finish = (err: unknown, res?: NtpResponse) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      sock.removeAllListeners('message');
      sock.close();
      if (res) resolve(res);
      else reject(err);
    };
    const onAbort = () => finish(signal!.reason);
    const timer = setTimeout(() => {
      finish(
        mismatched > 0
          ? new NtpError(
              'origin-mismatch',
              `ntp ${address}:${port}: ${mismatched} replies, none to this request (origin timestamp mismatch)`,
            )
          : new NtpError('timeout', `ntp ${address}:${port}: no reply within ${timeoutMs} ms`),
      );
    }, timeoutMs);
    signal?.addEventListener('abort', onAbort, { once: true });

    sock.on('error', (e) => finish(e));
    sock.on('message', (msg: Buffer, from: RemoteInfo) => {
      const elapsed = process.hrtime.bigint() - sentAt;
      if (from.address !== address || from.port !== port) return; // not our server: someone else's packet
      if (msg.length < PACKET_SIZE) {
        finish(new NtpError('short-packet', `ntp ${address}:${port}: ${msg.length}-byte reply`));
        return;
      }
      const packet = decodePacket(msg);
      if (packet.originTime !== cookie) {
        mismatched++; // a late reply to an earlier request, or a forgery: keep waiting for ours
        return;
      }
      try {
        finish(undefined, measure(address, port, packet, t1, t1 + elapsed));
      } catch (e) {
        finish(e);
      }
    });
    t1 = now();
    sentAt = process.hrtime.bigint();
    sock.send(request, port, address, (e) => {
      if (e) finish(e);
    });
  });
}

/** measure validates a reply to our request and computes offset and delay; t1/t4 are local Unix ns. */
export function measure(address: string, port: number, p: NtpPacket, t1: bigint, t4: bigint): NtpResponse {
  const where = `ntp ${address}:${port}`;
  if (p.mode !== MODE_SERVER)
    throw new NtpError('bad-mode', `${where}: reply in mode ${p.mode}, not server (4)`);
  if (p.version < 1 || p.version > 4) throw new NtpError('bad-version', `${where}: version ${p.version}`);
  if (p.stratum === 0) {
    const code = kissCode(p.referenceId);
    throw new NtpError('kiss-of-death', `${where}: kiss-o'-death ${code}`, code);
  }
  if (p.leap === LEAP_NOT_IN_SYNC)
    throw new NtpError('unsynchronized', `${where}: server is not synchronised`);
  if (p.stratum > MAX_STRATUM) throw new NtpError('bad-stratum', `${where}: stratum ${p.stratum}`);
  if (p.transmitTime === 0n || p.receiveTime === 0n)
    throw new NtpError('bad-time', `${where}: zero server timestamp`);
  const t2 = ntpToUnixNs(p.receiveTime, t1);
  const t3 = ntpToUnixNs(p.transmitTime, t1);
  const ref = ntpToUnixNs(p.referenceTime, t1);
  if (t3 < t2) throw new NtpError('bad-time', `${where}: server clock went backwards during the exchange`);
  if (p.referenceTime === 0n || ref > t3)
    throw new NtpError('bad-time', `${where}: reference time is unset or ahead`);
  if (t3 - ref > MAX_FRESHNESS_NS) throw new NtpError('bad-time', `${where}: reference time is stale`);
  const rootDistance = p.rootDelay / 2 + p.rootDispersion;
  if (rootDistance > MAX_DISTANCE_S)
    throw new NtpError('bad-distance', `${where}: root distance ${rootDistance.toFixed(3)} s`);
  const rtt = t4 - t1 - (t3 - t2);
  return {
    address,
    port,
    packet: p,
    time: t3,
    clockOffset: (t2 - t1 + (t3 - t4)) / 2n,
    rtt: rtt < 0n ? 0n : rtt,
    stratum: p.stratum,
    leap: p.leap,
    rootDistance,
  };
}
