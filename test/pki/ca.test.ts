import { describe, expect, it } from 'vitest';
import {
  CA_VALIDITY_MS,
  issueCertificate,
  loadIssuer,
  newCertificateAuthority,
  newIssuer,
  PKIError,
  parseCertificate,
} from '../../src/pki/index.js';
import { inspect, verifyChain } from './openssl.js';

const now = new Date('2026-03-01T12:00:00Z');

describe('newCertificateAuthority', () => {
  it('mints an Ed25519 OS CA by default, as upstream, that openssl accepts as a trust anchor', async () => {
    const ca = await newCertificateAuthority({ organizations: ['talos'], now });
    expect((await verifyChain(ca.crt, ca.crt)).stdout).toContain(': OK');
    const v = await inspect(ca.crt);
    expect(v.publicKeyAlgorithm).toBe('ED25519');
    expect(v.signatureAlgorithm).toBe('ED25519');
    expect(v.subject).toBe('O = talos');
    expect(v.issuer).toBe('O = talos');
    expect(v.ext['X509v3 Basic Constraints']).toBe('CA:TRUE');
    expect(v.critical['X509v3 Basic Constraints']).toBe(true);
    expect(v.ext['X509v3 Key Usage']).toBe('Digital Signature, Certificate Sign');
    expect(v.critical['X509v3 Key Usage']).toBe(true);
    expect(v.ext['X509v3 Extended Key Usage']).toBe(
      'TLS Web Server Authentication, TLS Web Client Authentication',
    );
    expect(v.ext['X509v3 Subject Key Identifier']).toMatch(/^([0-9A-F]{2}:){19}[0-9A-F]{2}$/);
    expect(v.ext['X509v3 Authority Key Identifier']).toBeUndefined(); // Go omits it on self-signed roots
    expect(v.notBefore).toEqual(now);
    expect(v.notAfter.getTime() - v.notBefore.getTime()).toBe(CA_VALIDITY_MS);
    expect(ca.key).toMatch(/^-----BEGIN ED25519 PRIVATE KEY-----\n/);
  });

  it.each([
    ['etcd', { organizations: ['etcd'] }, 'O = etcd'],
    ['kubernetes', { organizations: ['kubernetes'] }, 'O = kubernetes'],
    ['aggregator', { commonName: 'front-proxy' }, 'CN = front-proxy'],
  ])('mints the %s CA as ECDSA P-256 signed with SHA-256', async (_, name, subject) => {
    const ca = await newCertificateAuthority({ ...name, keyType: 'ecdsa-p256', now });
    expect((await verifyChain(ca.crt, ca.crt)).stdout).toContain(': OK');
    const v = await inspect(ca.crt);
    expect(v.publicKeyAlgorithm).toBe('id-ecPublicKey');
    expect(v.text).toContain('NIST CURVE: P-256');
    expect(v.signatureAlgorithm).toBe('ecdsa-with-SHA256');
    expect(v.subject).toBe(subject);
    expect(v.ext['X509v3 Basic Constraints']).toBe('CA:TRUE');
    expect(v.notAfter.getTime() - v.notBefore.getTime()).toBe(CA_VALIDITY_MS);
    expect(ca.key).toMatch(/^-----BEGIN EC PRIVATE KEY-----\n/);
  });

  it('writes validity past 2049 as GeneralizedTime, which openssl reads back', async () => {
    const ca = await newCertificateAuthority({
      organizations: ['talos'],
      now: new Date('2045-06-01T00:00:00Z'),
    });
    const v = await inspect(ca.crt);
    expect(v.notAfter).toEqual(new Date('2055-05-30T00:00:00Z'));
    expect(parseCertificate(ca.crt).notAfter).toEqual(v.notAfter);
    expect((await verifyChain(ca.crt, ca.crt, ['-attime', String(Date.UTC(2050, 0, 2) / 1000)])).code).toBe(
      0,
    );
  });

  it('refuses a CA without a subject', async () => {
    await expect(newCertificateAuthority({})).rejects.toThrow(PKIError);
    await expect(newCertificateAuthority({})).rejects.toMatchObject({ code: 'invalid-option' });
  });

  it('refuses a negative lifetime, naming both ends', async () => {
    await expect(newCertificateAuthority({ organizations: ['x'], now, validityMs: -1 })).rejects.toThrow(
      /notAfter 2026-03-01T11:59:59\.999Z is not after notBefore 2026-03-01T12:00:00\.000Z/,
    );
  });
});

describe('newIssuer', () => {
  it('hands over the issuer loadIssuer would make of the pair it mints', async () => {
    for (const keyType of ['ed25519', 'ecdsa-p256'] as const) {
      const { pair, issuer } = await newIssuer({ commonName: 'minted', keyType });
      const loaded = loadIssuer(pair);
      expect(issuer.crt).toBe(loaded.crt);
      // KeyObjects cache what was read of them: compare the public keys by their bytes
      const { publicKey, ...fields } = issuer.certificate;
      const { publicKey: loadedKey, ...loadedFields } = loaded.certificate;
      expect(fields).toEqual(loadedFields);
      expect(publicKey.export({ format: 'der', type: 'spki' })).toEqual(
        loadedKey.export({ format: 'der', type: 'spki' }),
      );
      expect(issuer.leafKeyType).toBe(loaded.leafKeyType);
      expect(issuer.privateKey.export({ format: 'der', type: 'pkcs8' })).toEqual(
        loaded.privateKey.export({ format: 'der', type: 'pkcs8' }),
      );
      // and a leaf it signs chains to the minted certificate
      const leaf = await issueCertificate(issuer, { commonName: 'leaf' });
      expect((await verifyChain(pair.crt, leaf.crt)).stdout).toContain(': OK');
    }
  });

  it('refuses a subject without a name, as newCertificateAuthority does', async () => {
    await expect(newIssuer({})).rejects.toThrow(PKIError);
  });
});
