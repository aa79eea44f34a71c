import { beforeAll, describe, expect, it } from 'vitest';
import {
  type CertificateAndKey,
  checkKeyPair,
  decodePEM,
  encodePEM,
  newCertificateAuthority,
  newCSRAndKey,
  PEMLabel,
  parseCertificate,
  parseCertificateRequest,
  profiles,
  signCertificateRequest,
} from '../../src/pki/index.js';
import { inspect, openssl, verifyChain, withFiles } from './openssl.js';

let os: CertificateAndKey;
beforeAll(async () => {
  os = await newCertificateAuthority({ organizations: ['talos'] });
});

const worker = {
  commonName: 'worker-1.lan',
  dnsNames: ['worker-1', 'worker-1.lan'],
  ipAddresses: ['10.5.0.3', '127.0.0.1'],
};

describe('certificate requests', () => {
  it('makes an Ed25519 key and CSR for an Ed25519 CA that openssl verifies', async () => {
    const { csr, key } = await newCSRAndKey(os.crt, { ...worker, organizations: ['os:impersonator'] });
    expect(key.startsWith('-----BEGIN ED25519 PRIVATE KEY-----\n')).toBe(true);
    const r = await withFiles({ csr }, (p) => openssl(['req', '-in', p.csr, '-noout', '-verify', '-text']));
    expect(r.code).toBe(0);
    expect(r.stdout + r.stderr).toMatch(/verify OK/i);
    expect(r.stdout).toContain('Subject: O = os:impersonator, CN = worker-1.lan');
    expect(r.stdout).toContain('DNS:worker-1, DNS:worker-1.lan, IP Address:10.5.0.3, IP Address:127.0.0.1');
    expect(r.stdout).toContain('ED25519');
  });

  it('follows an ECDSA CA with a P-256 key', async () => {
    const etcd = await newCertificateAuthority({ organizations: ['etcd'], keyType: 'ecdsa-p256' });
    const { csr } = await newCSRAndKey(etcd.crt, { commonName: 'x' });
    expect(parseCertificateRequest(csr).keyAlgorithm).toBe('ecdsa-p256');
  });

  it('signs a worker CSR as trustd does: roles dropped, serverAuth only, SANs kept', async () => {
    const { csr, key } = await newCSRAndKey(os.crt, { ...worker, organizations: ['os:admin'] });
    const crt = signCertificateRequest(os, csr, profiles.trustdSigning());
    checkKeyPair({ crt, key });
    expect((await verifyChain(os.crt, crt, ['-purpose', 'sslserver'])).stdout).toContain(': OK');
    // a worker must not get a client certificate out of trustd
    expect((await verifyChain(os.crt, crt, ['-purpose', 'sslclient'])).code).not.toBe(0);
    const v = await inspect(crt);
    expect(v.subject).toBe('CN = worker-1.lan');
    expect(v.ext['X509v3 Extended Key Usage']).toBe('TLS Web Server Authentication');
    expect(v.ext['X509v3 Key Usage']).toBe('Digital Signature');
    expect(v.ext['X509v3 Subject Alternative Name']).toBe(
      'DNS:worker-1, DNS:worker-1.lan, IP Address:10.5.0.3, IP Address:127.0.0.1',
    );
    const info = parseCertificate(crt);
    expect(info.notAfter.getTime() - info.notBefore.getTime()).toBe(24 * 3_600_000);
  });

  it('reads and signs a CSR made by openssl', async () => {
    const key = await openssl(['genpkey', '-algorithm', 'EC', '-pkeyopt', 'ec_paramgen_curve:P-256']);
    const csr = await withFiles(
      { key: key.stdout },
      async (p) =>
        (
          await openssl([
            'req',
            '-new',
            '-key',
            p.key,
            '-subj',
            '/O=os:reader/CN=laptop',
            '-addext',
            'subjectAltName=DNS:laptop.lan,IP:192.168.1.9',
          ])
        ).stdout,
    );
    const req = parseCertificateRequest(csr, 'openssl csr');
    expect(req.subject.commonName).toBe('laptop');
    expect(req.subject.organizations).toEqual(['os:reader']);
    expect(req.dnsNames).toEqual(['laptop.lan']);
    expect(req.ipAddresses).toEqual(['192.168.1.9']);
    const crt = signCertificateRequest(os, csr, { extKeyUsage: ['clientAuth'] });
    expect((await verifyChain(os.crt, crt, ['-purpose', 'sslclient'])).stdout).toContain(': OK');
    expect((await inspect(crt)).subject).toBe('O = os:reader, CN = laptop');
  });

  it('refuses a CSR whose signature does not match its content', async () => {
    const { csr } = await newCSRAndKey(os.crt, { commonName: 'honest' });
    const der = decodePEM(csr, 'csr').der;
    const at = der.indexOf(Buffer.from('honest'));
    const forged = Buffer.from(der);
    forged.write('hacker', at, 'ascii');
    expect(() =>
      parseCertificateRequest(encodePEM(PEMLabel.certificateRequest, forged), 'worker csr'),
    ).toThrow('worker csr: signature does not verify against its own key');
  });
});
