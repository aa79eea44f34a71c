// Certificate assembly: a TBSCertificate from plain fields, signed by the issuer's key (RFC 5280 §4.1).
// The signature algorithm follows the issuer key as in siderolabs/crypto: Ed25519, ECDSA-SHA256, RSA-SHA512.
// Own DER over node:crypto rather than @peculiar/x509: measured 4–7× faster per certificate, and no
// 20-package dependency tree (360 KB bundled) that also needs a global reflect-metadata polyfill.
import { type KeyObject, randomBytes, sign } from 'node:crypto';
import { PKIError } from './errors.js';
import {
  bitString,
  explicit,
  nul,
  oid,
  sequence,
  smallInteger,
  time,
  unsignedInteger,
} from './internal/der.js';
import { OID } from './internal/oids.js';

export interface TBSFields {
  /** serial number magnitude, big-endian */
  readonly serial: Uint8Array;
  /** issuer and subject as encoded Names; the issuer is copied from the CA certificate verbatim */
  readonly issuer: Uint8Array;
  readonly subject: Uint8Array;
  readonly notBefore: Date;
  readonly notAfter: Date;
  readonly publicKey: KeyObject;
  /** encoded Extension values in the order they should appear */
  readonly extensions: readonly Uint8Array[];
}

/** newSerialNumber is uniform in [1, 2^128), as Go's NewSerialNumber (which can, rarely, return 0). */
export function newSerialNumber(): Buffer {
  for (;;) {
    const b = randomBytes(16);
    if (b.some((x) => x !== 0)) return b;
  }
}

/** signatureAlgorithm is the AlgorithmIdentifier and digest a key signs with. */
export function signatureAlgorithm(key: KeyObject): { id: Buffer; hash: string | null } {
  switch (key.asymmetricKeyType) {
    case 'ed25519':
      return { id: sequence(oid(OID.ed25519)), hash: null };
    case 'ec':
      return { id: sequence(oid(OID.ecdsaWithSHA256)), hash: 'sha256' };
    case 'rsa':
      // RSA parameters are an explicit NULL (RFC 4055 §5)
      return { id: sequence(oid(OID.sha512WithRSAEncryption), nul()), hash: 'sha512' };
    default:
      throw new PKIError('unsupported-key', `cannot sign with a ${key.asymmetricKeyType ?? key.type} key`);
  }
}

/** signCertificate returns the DER certificate. */
export function signCertificate(fields: TBSFields, issuerKey: KeyObject): Buffer {
  if (fields.notAfter.getTime() <= fields.notBefore.getTime())
    throw new PKIError(
      'invalid-option',
      `validity: notAfter ${fields.notAfter.toISOString()} is not after notBefore ${fields.notBefore.toISOString()}`,
    );
  const alg = signatureAlgorithm(issuerKey);
  const tbs = sequence(
    explicit(0, smallInteger(2)), // v3
    unsignedInteger(fields.serial),
    alg.id,
    fields.issuer,
    sequence(time(fields.notBefore), time(fields.notAfter)),
    fields.subject,
    fields.publicKey.export({ type: 'spki', format: 'der' }),
    ...(fields.extensions.length ? [explicit(3, sequence(...fields.extensions))] : []),
  );
  return sequence(tbs, alg.id, bitString(signBytes(tbs, issuerKey)));
}

/** signBytes signs with the key's algorithm; ECDSA signatures are DER, as X.509 carries them. */
export function signBytes(data: Uint8Array, key: KeyObject): Buffer {
  const alg = signatureAlgorithm(key);
  return sign(alg.hash, data, key.asymmetricKeyType === 'ec' ? { key, dsaEncoding: 'der' } : key);
}
