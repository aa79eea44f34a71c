// The TLS server name of a client that dials a node by its IP address.
import { isIP } from 'node:net';
import { checkServerIdentity, type PeerCertificate } from 'node:tls';
import type { ChannelOptions } from '@grpc/grpc-js';

// grpc-js sends the dialled host as the TLS server name, and Node warns (DEP0123) when that is an IP, as
// RFC 6066 forbids it. For a node named by its IP the server name becomes this reserved, never-resolved
// name (servers pick no certificate by it), while the certificate is still checked against the IP.
const IP_SERVER_NAME = '.ip.keel.invalid';

/** serverNameOptions are the channel options that keep an IP out of the TLS server name. */
export function serverNameOptions(address: string): ChannelOptions {
  const m = /^(?:\[([^\]]+)\]|([^:]+))(?::\d+)?$/.exec(address);
  const host = m?.[1] ?? m?.[2];
  return host !== undefined && isIP(host)
    ? { 'grpc.ssl_target_name_override': `${host}${IP_SERVER_NAME}` }
    : {};
}

/** checkNamed checks a certificate against the host serverNameOptions carried in the name, else the name. */
export const checkNamed = (name: string, cert: PeerCertificate): Error | undefined =>
  checkServerIdentity(name.endsWith(IP_SERVER_NAME) ? name.slice(0, -IP_SERVER_NAME.length) : name, cert);
