import { beforeAll, describe, expect, it } from 'vitest';
import {
  type CertificateAndKey,
  DEFAULT_CERTIFICATE_VALIDITY_MS,
  issueCertificate,
  loadIssuer,
  newCertificateAuthority,
  parseCertificate,
} from '../../src/pki/index.js';
import { inspect, openssl, verifyChain, withFiles } from './openssl.js';

const now = new Date('2026-03-01T12:00:00Z');
const at = ['-attime', String(now.getTime() / 1000 + 60)];
let os: CertificateAndKey;
let etcd: CertificateAndKey;

beforeAll(async () => {
  os = await newCertificateAuthority({ organizations: ['talos'], now });
  etcd = await newCertificateAuthority({ organizations: ['etcd'], keyType: 'ecdsa-p256', now });
});

describe('issueCertificate', () => {
  it('issues an Ed25519 server certificate from the Ed25519 CA with DNS and IP SANs', async () => {
    const leaf = await issueCertificate(os, {
      commonName: 'node-1.example.org',
      dnsNames: ['node-1', 'node-1.example.org'],
      ipAddresses: ['10.5.0.2', '127.0.0.1', 'fd00::2', '::1'],
      extKeyUsage: ['serverAuth'],
      now,
    });
    const r = await verifyChain(os.crt, leaf.crt, [...at, '-purpose', 'sslserver']);
    expect(r.stdout + r.stderr).toContain(': OK');
    const v = await inspect(leaf.crt);
    expect(v.publicKeyAlgorithm).toBe('ED25519');
    expect(v.subject).toBe('CN = node-1.example.org');
    expect(v.issuer).toBe('O = talos');
    expect(v.ext['X509v3 Subject Alternative Name']).toBe(
      'DNS:node-1, DNS:node-1.example.org, IP Address:10.5.0.2, IP Address:127.0.0.1, IP Address:FD00:0:0:0:0:0:0:2, IP Address:0:0:0:0:0:0:0:1',
    );
    expect(v.ext['X509v3 Extended Key Usage']).toBe('TLS Web Server Authentication');
    expect(v.ext['X509v3 Key Usage']).toBe('Digital Signature');
    expect(v.critical['X509v3 Key Usage']).toBe(true);
    expect(v.ext['X509v3 Basic Constraints']).toBeUndefined();
    expect(v.notBefore).toEqual(now);
    expect(v.notAfter.getTime() - now.getTime()).toBe(DEFAULT_CERTIFICATE_VALIDITY_MS);
    // the AKI names the CA's key, which is how verifiers pick the issuer among accepted CAs
    expect(parseCertificate(leaf.crt).authorityKeyId).toBe(parseCertificate(os.crt).subjectKeyId);
  });

  it('issues ECDSA P-256 peer certificates from an ECDSA CA, usable as server and client', async () => {
    const leaf = await issueCertificate(etcd, {
      commonName: 'node-1',
      dnsNames: ['node-1'],
      ipAddresses: ['10.5.0.2'],
      keyUsage: ['digitalSignature', 'keyEncipherment'],
      now,
    });
    for (const purpose of ['sslserver', 'sslclient']) {
      const r = await verifyChain(etcd.crt, leaf.crt, [...at, '-purpose', purpose]);
      expect(r.stdout + r.stderr, purpose).toContain(': OK');
    }
    const v = await inspect(leaf.crt);
    expect(v.publicKeyAlgorithm).toBe('id-ecPublicKey');
    expect(v.text).toContain('NIST CURVE: P-256');
    expect(v.signatureAlgorithm).toBe('ecdsa-with-SHA256');
    expect(v.ext['X509v3 Extended Key Usage']).toBe(
      'TLS Web Server Authentication, TLS Web Client Authentication',
    );
    expect(v.ext['X509v3 Key Usage']).toBe('Digital Signature, Key Encipherment');
    expect(leaf.key).toMatch(/^-----BEGIN EC PRIVATE KEY-----\n/);
  });

  it('puts every role into one multi-valued Organization RDN, as Go does, and openssl reads them all', async () => {
    const leaf = await issueCertificate(os, {
      organizations: ['os:reader', 'os:etcd:backup', 'os:admin'],
      extKeyUsage: ['clientAuth'],
      now,
    });
    expect((await verifyChain(os.crt, leaf.crt, [...at, '-purpose', 'sslclient'])).stdout).toContain(': OK');
    const v = await inspect(leaf.crt);
    // DER sorts the members of a SET by encoding
    expect(v.subject).toBe('O = os:admin + O = os:reader + O = os:etcd:backup');
    expect(parseCertificate(leaf.crt).subject.organizations).toEqual([
      'os:admin',
      'os:reader',
      'os:etcd:backup',
    ]);
  });

  it('marks SANs critical when the subject is empty (RFC 5280 §4.2.1.6)', async () => {
    const leaf = await issueCertificate(os, { ipAddresses: ['10.0.0.1'], now });
    const v = await inspect(leaf.crt);
    expect(v.subject).toBe('');
    expect(v.critical['X509v3 Subject Alternative Name']).toBe(true);
    expect((await verifyChain(os.crt, leaf.crt, at)).stdout).toContain(': OK');
  });

  it('backdates notBefore without shortening the lifetime counted from now', async () => {
    const leaf = await issueCertificate(os, {
      commonName: 'c',
      backdateMs: 10_000,
      validityMs: 3_600_000,
      now,
    });
    const v = await inspect(leaf.crt);
    expect(v.notBefore).toEqual(new Date(now.getTime() - 10_000));
    expect(v.notAfter).toEqual(new Date(now.getTime() + 3_600_000));
  });

  it('uses a loaded issuer as well as a PEM pair', async () => {
    const issuer = loadIssuer(etcd, 'certs.etcd');
    expect(issuer.leafKeyType).toBe('ecdsa-p256');
    const leaf = await issueCertificate(issuer, { commonName: 'talos', extKeyUsage: ['clientAuth'], now });
    expect((await verifyChain(etcd.crt, leaf.crt, at)).stdout).toContain(': OK');
  });

  it('does not verify against a different CA (negative control for the openssl check)', async () => {
    const other = await newCertificateAuthority({ organizations: ['talos'], now });
    const leaf = await issueCertificate(os, { commonName: 'x', now });
    const r = await verifyChain(other.crt, leaf.crt, at);
    expect(r.code).not.toBe(0);
    expect(r.stdout + r.stderr).toMatch(/unable to get local issuer certificate|signature failure/);
  });

  it.each([
    [{ ipAddresses: ['10.0.0.300'] }, /ip address "10\.0\.0\.300": not an IP address/],
    [{ dnsNames: ['bad name'] }, /dns name "bad name": not a host name/],
    [{}, /needs a commonName, an organization or a SAN/],
    [{ commonName: 'x', validityMs: 0 }, /is not after notBefore/],
    [{ commonName: 'x', backdateMs: -1 }, /backdateMs -1: must not be negative/],
  ])('rejects bad options with a message naming them (%o)', async (opts, message) => {
    await expect(issueCertificate(os, { ...opts, now })).rejects.toMatchObject({
      code: 'invalid-option',
      message: expect.stringMatching(message),
    });
  });

  it('refuses to issue from a certificate that is not a CA', async () => {
    const leaf = await issueCertificate(os, { commonName: 'x', now });
    expect(() => loadIssuer(leaf, 'machine.ca')).toThrow(/machine\.ca: crt is not a CA/);
  });

  it('refuses a CA whose key belongs to another certificate', async () => {
    expect(() => loadIssuer({ crt: os.crt, key: etcd.key }, 'machine.ca')).toThrow(
      /machine\.ca: key does not belong to the CA certificate/,
    );
  });

  it('issues from an RSA CA made by openssl (kubeadm PKI imports), with RSA-4096 leaves and SHA-512', async () => {
    const key = await openssl(['genpkey', '-algorithm', 'RSA', '-pkeyopt', 'rsa_keygen_bits:2048']);
    const crt = await withFiles(
      { key: key.stdout },
      async (p) =>
        (await openssl(['req', '-x509', '-key', p.key, '-days', '3650', '-subj', '/CN=kubernetes'])).stdout,
    );
    const issuer = loadIssuer({ crt, key: key.stdout }, 'ca.crt');
    expect(issuer.leafKeyType).toBe('rsa-4096');
    const leaf = await issueCertificate(issuer, {
      commonName: 'kube-apiserver',
      extKeyUsage: ['serverAuth'],
    });
    expect((await verifyChain(crt, leaf.crt, ['-purpose', 'sslserver'])).stdout).toContain(': OK');
    const v = await inspect(leaf.crt);
    expect(v.signatureAlgorithm).toBe('sha512WithRSAEncryption');
    expect(v.text).toContain('Public-Key: (4096 bit)');
    expect(parseCertificate(leaf.crt).keyAlgorithm).toBe('rsa-4096');
    expect(leaf.key).toMatch(/^-----BEGIN RSA PRIVATE KEY-----\n/);
  });

  it('stops before minting when the signal is already aborted', async () => {
    const ac = new AbortController();
    ac.abort(new Error('shutting down'));
    await expect(issueCertificate(os, { commonName: 'x', signal: ac.signal })).rejects.toThrow(
      'shutting down',
    );
  });
});
