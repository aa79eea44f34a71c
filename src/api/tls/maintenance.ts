// Maintenance mode's throw-away PKI: a self-signed root minted at boot, a server certificate from it, and
// the SPKI fingerprint an operator can pin with `--cert-fingerprint`.
import { type CertificateAndKey, issueCertificate, newIssuer, spkiFingerprint } from '../../pki/index.js';

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
  const server = await issueCertificate(issuer, {
    commonName: 'maintenance-service',
    ipAddresses: opts.ipAddresses ?? [],
    dnsNames: opts.dnsNames ?? [],
    keyUsage: ['digitalSignature'],
    extKeyUsage: ['serverAuth'],
    ...common,
  });
  return { ca, server, fingerprint: spkiFingerprint(server.crt) };
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
