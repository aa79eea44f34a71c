// WireGuard rules: 32-byte base64 keys, `host:port` peer endpoints and CIDR allowed IPs.
import type { LegacyWireguard } from '../types/v1alpha1/network.js';
import type { RuleContext } from './context.js';
import { hasHostPort, isCIDR, isWireguardKey } from './formats.js';

const q = JSON.stringify;

/** validateLegacyWireguard applies upstream's checkWireguard to `machine.network.interfaces[].wireguard`. */
export function validateLegacyWireguard(w: LegacyWireguard, at: string, ctx: RuleContext): void {
  // an absent key is checked like an empty one: upstream decodes it and finds 0 bytes
  if (!isWireguardKey(w.privateKey ?? ''))
    ctx.error(`${at}.privateKey`, `private key is invalid: ${keyProblem(w.privateKey ?? '')}`);
  w.peers?.forEach((p, i) => {
    const pat = `${at}.peers[${i}]`;
    if (!isWireguardKey(p.publicKey ?? ''))
      ctx.error(`${pat}.publicKey`, `public key invalid: ${keyProblem(p.publicKey ?? '')}`);
    if (p.endpoint && !hasHostPort(p.endpoint))
      ctx.error(`${pat}.endpoint`, `peer endpoint ${q(p.endpoint)} is invalid`);
    p.allowedIPs?.forEach((ip, j) => {
      if (!isCIDR(ip))
        ctx.error(`${pat}.allowedIPs[${j}]`, `peer allowed IP ${q(ip)} is invalid: not a CIDR`);
    });
  });
}

/** keyProblem says why a value is not a WireGuard key: bad base64 or the wrong length. */
export function keyProblem(key: string): string {
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(key) || key.length % 4 !== 0) return 'illegal base64 data';
  return `wrong key ${q(key)} length: ${Buffer.from(key, 'base64').length}`;
}
