// Fingerprints in the forms upstream prints and compares: SPKI SHA-256 as base64 (maintenance mode,
// MatchSPKIFingerprints), `sha256:<hex>` pins (kubeadm-style), and the certificate's own SHA-256.
import { createHash } from 'node:crypto';
import { asCertificateInfo, type CertificateInput } from './parse.js';

const sha256 = (b: Uint8Array) => createHash('sha256').update(b).digest();

/** spkiFingerprint is base64(SHA-256(SubjectPublicKeyInfo)), siderolabs/crypto's SPKIFingerprint. */
export const spkiFingerprint = (cert: CertificateInput): string =>
  sha256(asCertificateInfo(cert).spki).toString('base64');

/** spkiPin is `sha256:<hex of SHA-256(SPKI)>`, siderolabs/crypto's Hash and kubeadm's CA pin. */
export const spkiPin = (cert: CertificateInput): string =>
  `sha256:${sha256(asCertificateInfo(cert).spki).toString('hex')}`;

/** certificateFingerprint is SHA-256 of the DER, as `AA:BB:…` like `openssl x509 -fingerprint -sha256`. */
export const certificateFingerprint = (cert: CertificateInput): string =>
  (sha256(asCertificateInfo(cert).der).toString('hex').toUpperCase().match(/../g) ?? []).join(':');
