// TCP options Node's net does not set, on a connected socket's descriptor: keepalive probes every period
// (Go's SetKeepAlivePeriod sets the idle time and the interval alike), a user timeout so a dead peer
// fails the connection instead of leaving it hanging, and a short linger for probe connections.
import type { Socket } from 'node:net';
import { SOL_SOCKET, setsockopt, setsockoptInt } from '../socket.js';

const IPPROTO_TCP = 6;
const TCP_KEEPINTVL = 5;
const TCP_USER_TIMEOUT = 18;
const SO_LINGER = 13;

/** fdOf is the descriptor of a live socket; none once Node has closed its handle (a peer's early reset). */
function fdOf(s: Socket): number | undefined {
  const fd = (s as unknown as { _handle?: { fd?: unknown } })._handle?.fd;
  return typeof fd === 'number' && fd >= 0 ? fd : undefined;
}

/** keepAlive probes an idle connection after periodMs, then every periodMs. */
export function keepAlive(s: Socket, periodMs: number): void {
  s.setKeepAlive(true, periodMs);
  const fd = fdOf(s);
  if (fd !== undefined)
    setsockoptInt(fd, IPPROTO_TCP, TCP_KEEPINTVL, Math.max(1, Math.round(periodMs / 1000)));
}

/** userTimeout fails the connection when sent data stays unacknowledged for ms. */
export function userTimeout(s: Socket, ms: number): void {
  const fd = fdOf(s);
  if (fd !== undefined) setsockoptInt(fd, IPPROTO_TCP, TCP_USER_TIMEOUT, ms);
}

/** lingerSeconds bounds how long a close waits on unsent data (go-loadbalancer's probes use 1 s). */
export function lingerSeconds(s: Socket, seconds: number): void {
  const fd = fdOf(s);
  if (fd === undefined) return;
  const linger = Buffer.alloc(8);
  linger.writeInt32LE(1, 0);
  linger.writeInt32LE(seconds, 4);
  setsockopt(fd, SOL_SOCKET, SO_LINGER, linger);
}
