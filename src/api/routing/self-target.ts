// Whether a `nodes`/`node` entry names this node. apid serves a target that is one of the node's own
// addresses in place; matching the exact `host:port` instead would forward `-n 127.0.0.1` on a node bound
// to another port to whatever listens on 127.0.0.1:50000.
import { isIP } from 'node:net';

/** HostPort is a target split into its host and, when it names one, its port. */
export interface HostPort {
  readonly host: string;
  readonly port?: number;
}

/** splitTarget reads `host`, `host:port`, `[v6]`, `[v6]:port` and a bare IPv6 address. */
export function splitTarget(target: string): HostPort {
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(target);
  if (bracketed) return withPort(bracketed[1]!, bracketed[2]);
  const hostPort = /^([^:]*):(\d+)$/.exec(target);
  if (hostPort) return withPort(hostPort[1]!, hostPort[2]);
  return { host: target };
}

const withPort = (host: string, port: string | undefined): HostPort =>
  port === undefined ? { host } : { host, port: Number(port) };

const WILDCARDS = new Set(['0.0.0.0', '::', '']);

/** isLoopback: a loopback address or name is always the machine that answered. */
export function isLoopback(host: string): boolean {
  const h = host.toLowerCase();
  if (h === 'localhost' || h === '::1') return true;
  return isIP(h) === 4 && h.startsWith('127.');
}

export interface SelfNames {
  /** the bound `host:port` */
  readonly bound: string;
  /** the node's other names: its addresses and hostname */
  readonly names: Iterable<string>;
}

/**
 * namesThisNode: the target's host is the bound host, a loopback address, or one of the node's names, and it
 * names no port or the bound one (a different port is another node on the same host).
 */
export function namesThisNode(target: string, self: SelfNames): boolean {
  const t = splitTarget(target.trim());
  const bound = splitTarget(self.bound);
  if (t.port !== undefined && t.port !== bound.port) return false;
  const host = t.host.toLowerCase();
  if (isLoopback(host)) return true;
  if (host === bound.host.toLowerCase() && !WILDCARDS.has(host)) return true;
  for (const n of self.names) if (splitTarget(n).host.toLowerCase() === host) return true;
  return false;
}
