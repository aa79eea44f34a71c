// The PEM pairs Keel passes around, shaped like Talos' x509.PEMEncodedCertificateAndKey and PEMEncodedKey.
// Base64 wrapping for YAML belongs to the config layer.

/** CertificateAndKey is a certificate and its private key, both PEM. */
export interface CertificateAndKey {
  readonly crt: string;
  readonly key: string;
}

/** PEMEncodedKey is a bare private key (the service-account key has no certificate). */
export interface PEMEncodedKey {
  readonly key: string;
}
