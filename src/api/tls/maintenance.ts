// Maintenance mode's throw-away PKI: a self-signed root minted at boot, a server certificate from it, and
// the SPKI fingerprint an operator can pin with `--cert-fingerprint`.
import { createHash } from 'node:crypto';
import {
  type CertificateAndKey,
  encodePrivateKey,
  generateKey,
  newIssuer,
  signLeaf,
} from '../../pki/index.js';

export interface MaintenanceIdentity {
  readonly ca: CertificateAndKey;
  readonly server: CertificateAndKey;
  /** base64(SHA-256(server SPKI)), what talosctl compares against `--cert-fingerprint` */
  readonly fingerprint: string;
}

export interface MaintenanceIdentityOptions {
  /** addresses and names the node answers on; they become the certificate's SANs */
  readonly ipAddresses?: readonly string[];
  readonly dnsNames?: readonly string[];
  readonly now?: Date;
  readonly signal?: AbortSignal;
}

/** mintMaintenanceIdentity makes the Ed25519 maintenance root and a serverAuth leaf for this boot. */
export async function mintMaintenanceIdentity(
  opts: MaintenanceIdentityOptions = {},
): Promise<MaintenanceIdentity> {
  const { signal, now } = opts;
  const common = { ...(now ? { now } : {}), ...(signal ? { signal } : {}) };
  const { pair: ca, issuer } = await newIssuer({
    commonName: 'maintenance-root',
    keyType: 'ed25519',
    ...common,
  });
  // the leaf's key is at hand: its fingerprint needs no parsing of the certificate just signed
  const key = await generateKey(issuer.leafKeyType, signal ? { signal } : {});
  const crt = signLeaf(issuer, key.publicKey, {
    commonName: 'maintenance-service',
    ipAddresses: opts.ipAddresses ?? [],
    dnsNames: opts.dnsNames ?? [],
    keyUsage: ['digitalSignature'],
    extKeyUsage: ['serverAuth'],
    ...(now ? { now } : {}),
  });
  const spki = key.publicKey.export({ type: 'spki', format: 'der' });
  return {
    ca,
    server: { crt, key: encodePrivateKey(key.privateKey) },
    fingerprint: createHash('sha256').update(spki).digest('base64'),
  };
}

/** maintenanceConsoleLines are what the console shows so an operator can send the first config. */
export function maintenanceConsoleLines(addresses: readonly string[], fingerprint: string): string[] {
  const node = addresses[0] ?? '<IP>';
  return [
    'maintenance mode: the node waits for a machine configuration',
    `reachable at: ${addresses.length ? addresses.join(', ') : '(no address yet)'}`,
    `upload it with: talosctl apply-config --insecure --nodes ${node} --file <config.yaml>`,
    `server certificate fingerprint: ${fingerprint}`,
    `pin it with: talosctl apply-config --insecure --nodes ${node} --cert-fingerprint '${fingerprint}' --file <config.yaml>`,
  ];
}
