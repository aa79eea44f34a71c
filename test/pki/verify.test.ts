import { beforeAll, describe, expect, it } from 'vitest';
import {
  type CertificateAndKey,
  checkIssuedBy,
  checkKeyPair,
  decodePrivateKey,
  isKeyMismatch,
  isNotIssuedBy,
  issueCertificate,
  keyMatches,
  newCertificateAuthority,
  standardKeyLabel,
} from '../../src/pki/index.js';
import { openssl, withFiles } from './openssl.js';

let os: CertificateAndKey;
let etcd: CertificateAndKey;
beforeAll(async () => {
  os = await newCertificateAuthority({ organizations: ['talos'] });
  etcd = await newCertificateAuthority({ organizations: ['etcd'], keyType: 'ecdsa-p256' });
});

describe('checkKeyPair', () => {
  it('accepts a certificate with its own key', async () => {
    const leaf = await issueCertificate(os, { commonName: 'a' });
    expect(() => checkKeyPair(leaf)).not.toThrow();
    expect(keyMatches(leaf.crt, leaf.key)).toBe(true);
  });

  it('detects a key of the same type that belongs to another certificate', async () => {
    const a = await issueCertificate(os, { commonName: 'a' });
    const b = await issueCertificate(os, { commonName: 'b' });
    let caught: unknown;
    try {
      checkKeyPair({ crt: a.crt, key: b.key }, 'api.server');
    } catch (e) {
      caught = e;
    }
    expect(isKeyMismatch(caught)).toBe(true);
    expect((caught as Error).message).toBe('api.server: key does not belong to certificate CN=a (ed25519)');
    // and openssl agrees that they are not a pair
    const pubs = await withFiles({ crt: a.crt, key: standardKeyLabel(b.key) }, async (p) => [
      (await openssl(['x509', '-in', p.crt, '-noout', '-pubkey'])).stdout,
      (await openssl(['pkey', '-in', p.key, '-pubout'])).stdout,
    ]);
    expect(pubs[0]).not.toBe(pubs[1]);
  });

  it('detects a key of another type', async () => {
    const a = await issueCertificate(os, { commonName: 'a' });
    const b = await issueCertificate(etcd, { commonName: 'b' });
    expect(() => checkKeyPair({ crt: a.crt, key: b.key })).toThrow(
      expect.objectContaining({ code: 'key-mismatch' }),
    );
  });

  it('leaves key decoding working after a cross-type comparison (stale OpenSSL error queue)', async () => {
    const a = await issueCertificate(os, { commonName: 'a' });
    const b = await issueCertificate(etcd, { commonName: 'b' });
    expect(keyMatches(a.crt, b.key)).toBe(false);
    const rsa = await openssl(['genpkey', '-algorithm', 'RSA', '-pkeyopt', 'rsa_keygen_bits:1024']);
    expect(decodePrivateKey(rsa.stdout).asymmetricKeyType).toBe('rsa');
  });
});

describe('checkIssuedBy', () => {
  it('accepts the issuing CA and rejects another with the same subject', async () => {
    const leaf = await issueCertificate(os, { commonName: 'n' });
    expect(() => checkIssuedBy(leaf.crt, os.crt)).not.toThrow();
    const impostor = await newCertificateAuthority({ organizations: ['talos'] });
    let caught: unknown;
    try {
      checkIssuedBy(leaf.crt, impostor.crt);
    } catch (e) {
      caught = e;
    }
    expect(isNotIssuedBy(caught)).toBe(true);
    expect((caught as Error).message).toBe('certificate CN=n was not issued by ca O=talos');
  });
});
