// In-process checks: does a private key belong to a certificate, and did a CA sign a certificate.
// They throw PKIError so that callers can report which pair is wrong.
import { createPublicKey, type KeyObject, X509Certificate } from 'node:crypto';
import { PKIError } from './errors.js';
import { decodePrivateKey } from './keys.js';
import { formatName } from './name.js';
import { asCertificateInfo, type CertificateInput } from './parse.js';

/** keyMatches is true when the key (private PEM, private or public KeyObject) is the certificate's key. */
export function keyMatches(cert: CertificateInput, key: KeyObject | string): boolean {
  const info = asCertificateInfo(cert);
  const k = typeof key === 'string' ? decodePrivateKey(key) : key;
  const pub = k.type === 'public' ? k : createPublicKey(k);
  // equals() compares key material, so encoding choices do not matter; across key types it would leave
  // an error on OpenSSL's queue that fails the next unrelated key decode, hence the type check first
  return pub.asymmetricKeyType === info.publicKey.asymmetricKeyType && info.publicKey.equals(pub);
}

/** checkKeyPair throws `key-mismatch` when crt and key are not a pair; `what` names the pair. */
export function checkKeyPair(pair: { crt: string; key: string }, what = 'certificate and key'): void {
  const info = asCertificateInfo(pair.crt, `${what}: crt`);
  if (!keyMatches(info, decodePrivateKey(pair.key, `${what}: key`)))
    throw new PKIError(
      'key-mismatch',
      `${what}: key does not belong to certificate ${formatName(info.subject)} (${info.keyAlgorithm})`,
    );
}

/** checkIssuedBy throws `not-issued-by` unless `ca` is the issuer of `cert` and its signature verifies. */
export function checkIssuedBy(cert: CertificateInput, ca: CertificateInput): void {
  const leaf = asCertificateInfo(cert);
  const root = asCertificateInfo(ca, 'ca certificate');
  const x = new X509Certificate(leaf.der);
  const y = new X509Certificate(root.der);
  if (!x.checkIssued(y) || !x.verify(y.publicKey))
    throw new PKIError(
      'not-issued-by',
      `certificate ${formatName(leaf.subject)} was not issued by ca ${formatName(root.subject)}`,
    );
}
