// Where a worker finds trustd: its control plane endpoints, each on trustd's port unless it names one
// (upstream's resolver.EnsureEndpointsHavePorts with constants.TrustdPort).
import { isIPv6 } from 'node:net';

/** TRUSTD_PORT is upstream's constants.TrustdPort. */
export const TRUSTD_PORT = 50001;

export interface HostPort {
  readonly host: string;
  readonly port?: number;
}

/**
 * splitHostPort reads `host:port`, `[v6]:port`, or a bare host (a bare IPv6 address included, whose
 * colons are not a port), as Go's net.SplitHostPort would accept or refuse it.
 */
export function splitHostPort(endpoint: string): HostPort {
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(endpoint);
  if (bracketed) return { host: bracketed[1]!, ...(bracketed[2] ? { port: Number(bracketed[2]) } : {}) };
  if (isIPv6(endpoint)) return { host: endpoint };
  const m = /^([^:]*):(\d+)$/.exec(endpoint);
  return m ? { host: m[1]!, port: Number(m[2]) } : { host: endpoint };
}

/** joinHostPort brackets an IPv6 host. */
export const joinHostPort = (host: string, port: number): string =>
  host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;

/** withPort gives every endpoint a port: its own, else `port`. */
export const withPort = (endpoints: readonly string[], port: number = TRUSTD_PORT): string[] =>
  endpoints.map((e) => {
    const hp = splitHostPort(e);
    return joinHostPort(hp.host, hp.port ?? port);
  });
