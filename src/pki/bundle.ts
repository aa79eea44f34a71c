// The PKI half of `talosctl gen secrets`: the four CAs and the service-account key, and the talosconfig
// admin certificate minted from the OS CA. The YAML layout of the bundle is the config layer's.
import { newCertificateAuthority } from './ca.js';
import { type Issuer, issueCertificate } from './issue.js';
import { encodePrivateKey, generateKey } from './keys.js';
import { CA_VALIDITY_MS, TALOS_API_CLIENT_VALIDITY_MS } from './lifetimes.js';
import { talosAPIClient } from './profiles.js';
import { Role } from './roles.js';
import type { CertificateAndKey, PEMEncodedKey } from './types.js';

/** RSA-4096 for version contracts after 1.6 (UseRSAServiceAccountKey), ECDSA P-256 before. */
export type ServiceAccountKeyType = 'rsa-4096' | 'ecdsa-p256';

/** SecretsBundleCerts mirrors the bundle's `certs` section (Go field names; the YAML keys are lower case). */
export interface SecretsBundleCerts {
  /** ECDSA P-256 CA, O=etcd */
  readonly etcd: CertificateAndKey;
  /** ECDSA P-256 CA, O=kubernetes */
  readonly k8s: CertificateAndKey;
  /** ECDSA P-256 CA, CN=front-proxy */
  readonly k8sAggregator: CertificateAndKey;
  readonly k8sServiceAccount: PEMEncodedKey;
  /** Ed25519 CA, O=talos; its key under `ED25519 PRIVATE KEY` as upstream writes it */
  readonly os: CertificateAndKey;
}

export interface SecretsBundle {
  readonly certs: SecretsBundleCerts;
}

export interface MintSecretsBundleOptions {
  /** when validity starts, as upstream's bundle clock; defaults to the current time */
  readonly now?: Date;
  readonly serviceAccountKeyType?: ServiceAccountKeyType;
  /** keep CAs given here (e.g. from `--from-kubernetes-pki`) and mint only the rest */
  readonly existing?: Partial<SecretsBundleCerts>;
  readonly signal?: AbortSignal;
}

/**
 * mintSecretsBundle mints the CAs and the service-account key concurrently; the RSA-4096 key dominates
 * (seconds) and runs on the libuv pool while the CAs are made.
 */
export async function mintSecretsBundle(opts: MintSecretsBundleOptions = {}): Promise<SecretsBundle> {
  const { now = new Date(), serviceAccountKeyType = 'rsa-4096', existing = {}, signal } = opts;
  const base = { now, validityMs: CA_VALIDITY_MS, ...(signal ? { signal } : {}) };
  const [etcd, k8s, k8sAggregator, os, k8sServiceAccount] = await Promise.all([
    existing.etcd ?? newCertificateAuthority({ ...base, keyType: 'ecdsa-p256', organizations: ['etcd'] }),
    existing.k8s ??
      newCertificateAuthority({ ...base, keyType: 'ecdsa-p256', organizations: ['kubernetes'] }),
    existing.k8sAggregator ??
      newCertificateAuthority({ ...base, keyType: 'ecdsa-p256', commonName: 'front-proxy' }),
    existing.os ?? newCertificateAuthority({ ...base, keyType: 'ed25519', organizations: ['talos'] }),
    existing.k8sServiceAccount ??
      generateKey(serviceAccountKeyType, signal ? { signal } : {}).then((k) => ({
        key: encodePrivateKey(k.privateKey),
      })),
  ]);
  return { certs: { etcd, k8s, k8sAggregator, k8sServiceAccount, os } };
}

export interface TalosAPIClientOptions {
  /** Organizations of the certificate; `os:admin` by default */
  readonly roles?: readonly string[];
  readonly validityMs?: number;
  readonly now?: Date;
  readonly signal?: AbortSignal;
}

/** mintTalosAPIClientCertificate makes talosconfig's client certificate: OS CA, roles as O, 1 y. */
export function mintTalosAPIClientCertificate(
  osCA: CertificateAndKey | Issuer,
  opts: TalosAPIClientOptions = {},
): Promise<CertificateAndKey> {
  const { roles = [Role.admin], validityMs = TALOS_API_CLIENT_VALIDITY_MS, now, signal } = opts;
  return issueCertificate(osCA, {
    ...talosAPIClient(roles, validityMs),
    ...(now ? { now } : {}),
    ...(signal ? { signal } : {}),
  });
}
