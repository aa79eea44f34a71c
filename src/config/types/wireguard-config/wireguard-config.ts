// WireguardConfig: a WireGuard link with its key, port and peers (replaces `interfaces[].wireguard`).
import { isCIDR, isIPAddress, isWireguardKey, parseDuration } from '../../validate/formats.js';
import { keyProblem } from '../../validate/wireguard.js';
import { defineDocument } from '../definition.js';
import {
  type CommonLink,
  commonLinkFields,
  linkHeader,
  validateLinkFields,
  validateLinkName,
} from '../link-common/link-common.js';
import { int, list, str, struct } from '../schema.js';

export interface WireguardPeer {
  publicKey?: string;
  presharedKey?: string;
  endpoint?: string;
  persistentKeepaliveInterval?: string;
  allowedIPs?: string[];
}
export interface WireguardConfig extends CommonLink {
  privateKey?: string;
  listenPort?: number;
  firewallMark?: number;
  peers?: WireguardPeer[];
}

/** isAddrPort checks `ip:port` with a literal IP (IPv6 in brackets), as Go's netip.ParseAddrPort. */
export function isAddrPort(s: string): boolean {
  const m = /^(?:\[([^\]]+)\]|([^:[\]]+)):(\d{1,5})$/.exec(s);
  if (!m || Number(m[3]) > 65535) return false;
  return m[1] !== undefined ? isIPAddress(m[1]) && m[1].includes(':') : isIPAddress(m[2]!);
}

export const WireguardConfigDefinition = defineDocument<WireguardConfig>({
  kind: 'WireguardConfig',
  named: true,
  schema: struct({
    ...linkHeader,
    privateKey: str,
    listenPort: int,
    firewallMark: int,
    peers: list(
      struct({
        publicKey: str,
        presharedKey: str,
        endpoint: str,
        persistentKeepaliveInterval: str,
        allowedIPs: list(str),
      }),
    ),
    ...commonLinkFields,
  }),
  validate(doc, ctx) {
    validateLinkName(doc, ctx);
    if (!doc.privateKey) ctx.error('privateKey', 'wireguard private key must be specified');
    else if (!isWireguardKey(doc.privateKey))
      ctx.error('privateKey', `wireguard private key is invalid: ${keyProblem(doc.privateKey)}`);
    if (doc.listenPort !== undefined && (doc.listenPort < 0 || doc.listenPort > 65535))
      ctx.error('listenPort', 'wireguard listen port must be between 0 and 65535');
    doc.peers?.forEach((p, i) => {
      const at = `peers[${i}]`;
      if (!p.publicKey)
        ctx.error(`${at}.publicKey`, `wireguard peer public key must be specified (peer index ${i})`);
      else if (!isWireguardKey(p.publicKey))
        ctx.error(
          `${at}.publicKey`,
          `wireguard peer public key is invalid (peer index ${i}): ${keyProblem(p.publicKey)}`,
        );
      if (p.presharedKey && !isWireguardKey(p.presharedKey))
        ctx.error(
          `${at}.presharedKey`,
          `wireguard peer preshared key is invalid (peer index ${i}): ${keyProblem(p.presharedKey)}`,
        );
      // endpoint, keepalive and allowed IPs are typed upstream, so a malformed one fails to decode
      if (p.endpoint && !isAddrPort(p.endpoint))
        ctx.error(`${at}.endpoint`, `invalid AddrPort ${JSON.stringify(p.endpoint)}`);
      const keepalive = p.persistentKeepaliveInterval;
      if (keepalive !== undefined) {
        const ms = parseDuration(keepalive.replace(/^-/, ''));
        if (ms === undefined)
          ctx.error(`${at}.persistentKeepaliveInterval`, `invalid duration ${JSON.stringify(keepalive)}`);
        else if (keepalive.startsWith('-') && ms > 0)
          ctx.error(
            `${at}.persistentKeepaliveInterval`,
            `wireguard peer persistent keepalive interval cannot be negative (peer index ${i})`,
          );
      }
      p.allowedIPs?.forEach((ip, j) => {
        if (!isCIDR(ip)) ctx.error(`${at}.allowedIPs[${j}]`, `${JSON.stringify(ip)} is not a CIDR`);
      });
    });
    validateLinkFields(doc, ctx);
  },
});
