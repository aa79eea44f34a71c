import { beforeAll, describe, expect, it } from 'vitest';
import {
  CA_VALIDITY_MS,
  decodePrivateKey,
  keyAlgorithmOf,
  mintSecretsBundle,
  mintTalosAPIClientCertificate,
  newCertificateAuthority,
  parseCertificate,
  type SecretsBundle,
  TALOS_API_CLIENT_VALIDITY_MS,
} from '../../src/pki/index.js';
import { inspect, openssl, verifyChain, withFiles } from './openssl.js';

const now = new Date('2026-03-01T12:00:00Z');
const at = ['-attime', String(now.getTime() / 1000 + 60)];
let bundle: SecretsBundle;

beforeAll(async () => {
  bundle = await mintSecretsBundle({ now });
});

describe('mintSecretsBundle', () => {
  it.each([
    ['os', 'ED25519', 'O = talos', 'ED25519 PRIVATE KEY'],
    ['etcd', 'id-ecPublicKey', 'O = etcd', 'EC PRIVATE KEY'],
    ['k8s', 'id-ecPublicKey', 'O = kubernetes', 'EC PRIVATE KEY'],
    ['k8sAggregator', 'id-ecPublicKey', 'CN = front-proxy', 'EC PRIVATE KEY'],
  ] as const)('mints the %s CA as upstream: %s, %s, key under %s', async (name, alg, subject, label) => {
    const ca = bundle.certs[name];
    expect((await verifyChain(ca.crt, ca.crt, at)).stdout).toContain(': OK');
    const v = await inspect(ca.crt);
    expect(v.publicKeyAlgorithm).toBe(alg);
    expect(v.subject).toBe(subject);
    expect(v.ext['X509v3 Basic Constraints']).toBe('CA:TRUE');
    expect(v.notBefore).toEqual(now);
    expect(v.notAfter.getTime() - now.getTime()).toBe(CA_VALIDITY_MS);
    expect(ca.key.startsWith(`-----BEGIN ${label}-----\n`)).toBe(true);
  });

  it('mints an RSA-4096 service-account key by default (contracts after 1.6)', async () => {
    const key = bundle.certs.k8sServiceAccount.key;
    expect(key.startsWith('-----BEGIN RSA PRIVATE KEY-----\n')).toBe(true);
    const r = await withFiles({ key }, (p) => openssl(['rsa', '-in', p.key, '-noout', '-check']));
    expect(r.stdout).toContain('RSA key ok');
    expect(keyAlgorithmOf(decodePrivateKey(key))).toBe('rsa-4096');
  });

  it('mints an ECDSA P-256 service-account key for older contracts, and keeps CAs it is given', async () => {
    const etcd = await newCertificateAuthority({ organizations: ['etcd'], keyType: 'ecdsa-p256' });
    const old = await mintSecretsBundle({ serviceAccountKeyType: 'ecdsa-p256', existing: { etcd } });
    expect(old.certs.k8sServiceAccount.key.startsWith('-----BEGIN EC PRIVATE KEY-----\n')).toBe(true);
    expect(old.certs.etcd).toBe(etcd);
    expect(old.certs.os.crt).not.toBe(bundle.certs.os.crt);
  });
});

describe('mintTalosAPIClientCertificate', () => {
  it('makes the talosconfig admin certificate: OS CA, O=os:admin, clientAuth, Ed25519, one year', async () => {
    const admin = await mintTalosAPIClientCertificate(bundle.certs.os, { now });
    const r = await verifyChain(bundle.certs.os.crt, admin.crt, [...at, '-purpose', 'sslclient']);
    expect(r.stdout).toContain(': OK');
    const v = await inspect(admin.crt);
    expect(v.subject).toBe('O = os:admin');
    expect(v.publicKeyAlgorithm).toBe('ED25519');
    expect(v.ext['X509v3 Extended Key Usage']).toBe('TLS Web Client Authentication');
    expect(v.ext['X509v3 Key Usage']).toBe('Digital Signature');
    expect(v.notBefore).toEqual(now);
    expect(v.notAfter.getTime() - now.getTime()).toBe(TALOS_API_CLIENT_VALIDITY_MS);
    expect(admin.key.startsWith('-----BEGIN ED25519 PRIVATE KEY-----\n')).toBe(true);
    // as a server it must not pass: apid's clients are clientAuth-only
    expect(
      (await verifyChain(bundle.certs.os.crt, admin.crt, [...at, '-purpose', 'sslserver'])).code,
    ).not.toBe(0);
  });

  it('carries the requested roles and lifetime', async () => {
    const c = await mintTalosAPIClientCertificate(bundle.certs.os, {
      roles: ['os:reader', 'os:etcd:backup'],
      validityMs: 3_600_000,
      now,
    });
    const info = parseCertificate(c.crt);
    expect(info.subject.organizations).toEqual(['os:reader', 'os:etcd:backup']);
    expect(info.notAfter.getTime() - info.notBefore.getTime()).toBe(3_600_000);
  });
});
