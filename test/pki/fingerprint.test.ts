import { describe, expect, it } from 'vitest';
import {
  certificateFingerprint,
  issueCertificate,
  newCertificateAuthority,
  parseCertificate,
  spkiFingerprint,
  spkiPin,
} from '../../src/pki/index.js';
import { openssl, withFiles } from './openssl.js';

/** sha256 of the certificate's SubjectPublicKeyInfo DER, computed by openssl alone */
async function opensslSpkiSha256(crt: string): Promise<string> {
  const pub = await withFiles({ crt }, (p) => openssl(['x509', '-in', p.crt, '-noout', '-pubkey']));
  return withFiles({ pub: pub.stdout }, async (p) => {
    const der = `${p.pub}.der`; // inside the temp directory, removed with it
    const conv = await openssl(['pkey', '-pubin', '-in', p.pub, '-outform', 'DER', '-out', der]);
    if (conv.code !== 0) throw new Error(conv.stderr);
    return (await openssl(['dgst', '-sha256', '-r', der])).stdout.split(' ')[0]!;
  });
}

describe('fingerprints', () => {
  it.each(['ed25519', 'ecdsa-p256'] as const)('match what openssl computes (%s)', async (keyType) => {
    const ca = await newCertificateAuthority({ organizations: ['talos'], keyType });
    const leaf = await issueCertificate(ca, { commonName: 'node' });
    const spkiHex = await opensslSpkiSha256(leaf.crt);
    const certFp = await withFiles({ crt: leaf.crt }, (p) =>
      openssl(['x509', '-in', p.crt, '-noout', '-fingerprint', '-sha256']),
    );
    expect(spkiPin(leaf.crt)).toBe(`sha256:${spkiHex}`);
    expect(spkiFingerprint(leaf.crt)).toBe(Buffer.from(spkiHex, 'hex').toString('base64'));
    expect(certificateFingerprint(leaf.crt)).toBe(certFp.stdout.trim().replace(/^sha256 Fingerprint=/i, ''));
    expect(spkiFingerprint(parseCertificate(leaf.crt))).toBe(spkiFingerprint(leaf.crt));
  });
});
