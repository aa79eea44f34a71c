import { createPublicKey, type KeyObject } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  decodePrivateKey,
  encodePrivateKey,
  generateKey,
  keyAlgorithmOf,
  PEMLabel,
  standardKeyLabel,
} from '../../src/pki/index.js';
import { openssl, withFiles } from './openssl.js';

const spki = (k: KeyObject) =>
  (k.type === 'public' ? k : createPublicKey(k)).export({ type: 'spki', format: 'der' }).toString('hex');

describe('generateKey', () => {
  it.each([
    ['ed25519', 'ed25519', PEMLabel.ed25519PrivateKey],
    ['ecdsa-p256', 'ecdsa-p256', PEMLabel.ecPrivateKey],
  ] as const)('makes %s keys written under the upstream label', async (type, alg, label) => {
    const k = await generateKey(type);
    expect(keyAlgorithmOf(k.publicKey)).toBe(alg);
    const pem = encodePrivateKey(k.privateKey);
    expect(pem.startsWith(`-----BEGIN ${label}-----\n`)).toBe(true);
    expect(spki(decodePrivateKey(pem))).toBe(spki(k.publicKey));
  });

  it('makes RSA-4096 keys asynchronously, PKCS#1 under RSA PRIVATE KEY, which openssl reads', async () => {
    let ticks = 0;
    const timer = setInterval(() => ticks++, 1);
    const k = await generateKey('rsa-4096');
    clearInterval(timer);
    // the event loop kept running while the key was made on the thread pool
    expect(ticks).toBeGreaterThan(0);
    expect(keyAlgorithmOf(k.publicKey)).toBe('rsa-4096');
    const pem = encodePrivateKey(k.privateKey);
    expect(pem.startsWith('-----BEGIN RSA PRIVATE KEY-----\n')).toBe(true);
    const r = await withFiles({ key: pem }, (p) => openssl(['rsa', '-in', p.key, '-noout', '-text']));
    expect(r.stdout).toContain('Private-Key: (4096 bit, 2 primes)');
    expect(r.stdout).toContain('publicExponent: 65537 (0x10001)');
  });
});

describe('Ed25519 PEM labels', () => {
  it('decodes the same key under ED25519 PRIVATE KEY and PRIVATE KEY', async () => {
    const k = await generateKey('ed25519');
    const talos = encodePrivateKey(k.privateKey);
    const standard = encodePrivateKey(k.privateKey, { ed25519Label: 'standard' });
    expect(standard.startsWith('-----BEGIN PRIVATE KEY-----\n')).toBe(true);
    expect(standardKeyLabel(talos)).toBe(standard);
    expect(spki(decodePrivateKey(talos))).toBe(spki(k.publicKey));
    expect(spki(decodePrivateKey(standard))).toBe(spki(k.publicKey));
  });

  it('round-trips a key made by `openssl genpkey -algorithm ed25519`', async () => {
    const gen = await openssl(['genpkey', '-algorithm', 'ed25519']);
    expect(gen.code).toBe(0);
    const key = decodePrivateKey(gen.stdout, 'openssl key');
    expect(keyAlgorithmOf(key)).toBe('ed25519');
    const talos = encodePrivateKey(key);
    expect(talos.startsWith('-----BEGIN ED25519 PRIVATE KEY-----\n')).toBe(true);
    // same PKCS#8 bytes under the standard label: byte-identical to what openssl wrote
    expect(standardKeyLabel(talos)).toBe(gen.stdout);
    const pub = await withFiles({ a: gen.stdout, b: standardKeyLabel(talos) }, async (p) => [
      await openssl(['pkey', '-in', p.a, '-pubout']),
      await openssl(['pkey', '-in', p.b, '-pubout']),
    ]);
    expect(pub[1]!.code).toBe(0);
    expect(pub[1]!.stdout).toBe(pub[0]!.stdout);
  });

  it('shows why the relabel exists: openssl refuses the Talos label', async () => {
    const k = await generateKey('ed25519');
    const r = await withFiles({ key: encodePrivateKey(k.privateKey) }, (p) =>
      openssl(['pkey', '-in', p.key, '-noout']),
    );
    expect(r.code).not.toBe(0);
  });
});

describe('decodePrivateKey', () => {
  it('reads openssl EC (SEC 1) and PKCS#8 keys', async () => {
    const sec1 = await openssl(['ecparam', '-name', 'prime256v1', '-genkey', '-noout']);
    expect(keyAlgorithmOf(decodePrivateKey(sec1.stdout))).toBe('ecdsa-p256');
    const pkcs8 = await openssl(['genpkey', '-algorithm', 'EC', '-pkeyopt', 'ec_paramgen_curve:P-384']);
    expect(keyAlgorithmOf(decodePrivateKey(pkcs8.stdout))).toBe('ecdsa-p384');
  });

  it('names the input and the problem', async () => {
    expect(() => decodePrivateKey('nothing here', 'machine.ca.key')).toThrow(
      'machine.ca.key: no PEM block found',
    );
    expect(() =>
      decodePrivateKey('-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n', 'k'),
    ).toThrow(
      /k: PEM label CERTIFICATE, want ED25519 PRIVATE KEY or PRIVATE KEY or EC PRIVATE KEY or RSA PRIVATE KEY/,
    );
    expect(() =>
      decodePrivateKey('-----BEGIN EC PRIVATE KEY-----\nAAAA\n-----END EC PRIVATE KEY-----\n', 'k'),
    ).toThrow(
      expect.objectContaining({ code: 'invalid-key', message: 'k: EC PRIVATE KEY block does not decode' }),
    );
  });

  it('refuses a non-Ed25519 key under the Ed25519 label', async () => {
    const k = await generateKey('ecdsa-p256');
    const pkcs8 = k.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    const mislabelled = pkcs8.replaceAll('PRIVATE KEY', 'ED25519 PRIVATE KEY');
    expect(() => decodePrivateKey(mislabelled, 'os key')).toThrow(
      'os key: ED25519 PRIVATE KEY block holds a ec key',
    );
  });
});
