// src/pki: Keel's X.509 — keys, PEM, CAs, leaf certificates, parsing, fingerprints and renewal timing.
// Built on node:crypto with a small DER writer; no other dependency.
export {
  type MintSecretsBundleOptions,
  mintSecretsBundle,
  mintTalosAPIClientCertificate,
  type SecretsBundle,
  type SecretsBundleCerts,
  type ServiceAccountKeyType,
  type TalosAPIClientOptions,
} from './bundle.js';
export { type CAKeyType, type CAOptions, type MintedCA, newCertificateAuthority, newIssuer } from './ca.js';
export {
  type ControlPlaneCertificates,
  type ControlPlaneInputs,
  mintControlPlaneCertificates,
} from './control-plane.js';
export {
  type CertificateRequestInfo,
  newCertificateRequest,
  newCSRAndKey,
  parseCertificateRequest,
  type RequestOptions,
  type SignRequestOptions,
  signCertificateRequest,
} from './csr.js';
export {
  isInvalidInput,
  isKeyMismatch,
  isNotIssuedBy,
  isUnsupportedKey,
  PKIError,
  type PKIErrorCode,
} from './errors.js';
export { type ExtKeyUsage, KEY_USAGES, type KeyUsage } from './extensions.js';
export { certificateFingerprint, spkiFingerprint, spkiPin } from './fingerprint.js';
export {
  type Issuer,
  issueCertificate,
  type LeafFields,
  type LeafOptions,
  loadIssuer,
  signLeaf,
} from './issue.js';
export {
  decodePrivateKey,
  type Ed25519Label,
  encodePrivateKey,
  generateKey,
  type KeyAlgorithm,
  type KeyPair,
  type KeyType,
  keyAlgorithmOf,
  leafKeyTypeFor,
} from './keys.js';
export * from './lifetimes.js';
export { type DistinguishedName, formatName } from './name.js';
export {
  asCertificateInfo,
  type CertificateInfo,
  type CertificateInput,
  type ParsedName,
  parseCertificate,
  parseCertificateDER,
} from './parse.js';
export { decodePEM, decodePEMAll, encodePEM, type PEMBlock, PEMLabel, standardKeyLabel } from './pem.js';
export type { EtcdNode, SANs } from './profiles.js';
export * as profiles from './profiles.js';
export { type Clock, halfLife, needsRenewal, renewalDelayMs, systemClock } from './renewal.js';
export { Role } from './roles.js';
export { newSecret, newToken } from './tokens.js';
export type { CertificateAndKey, PEMEncodedKey } from './types.js';
export { checkIssuedBy, checkKeyPair, keyMatches } from './verify.js';
