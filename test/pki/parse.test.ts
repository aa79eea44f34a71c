import { describe, expect, it } from 'vitest';
import { parseCertificate, parseCertificateDER } from '../../src/pki/index.js';
import { openssl, withFiles } from './openssl.js';

/** a certificate made by openssl alone, so the parser is checked against an independent writer */
async function opensslCert(args: string[]): Promise<string> {
  const key = await openssl(['genpkey', '-algorithm', 'ed25519']);
  return withFiles({ key: key.stdout }, async (p) => {
    const r = await openssl(['req', '-x509', '-key', p.key, '-days', '30', ...args]);
    if (r.code !== 0) throw new Error(r.stderr);
    return r.stdout;
  });
}

describe('parseCertificate', () => {
  it('reads what openssl wrote: subject, SANs, usages, validity and key type', async () => {
    const crt = await opensslCert([
      '-subj',
      '/O=os:operator/O=os:reader/CN=node-7',
      '-addext',
      'subjectAltName=DNS:node-7,DNS:node-7.lan,IP:10.0.0.7,IP:fd00::7',
      '-addext',
      'extendedKeyUsage=serverAuth,clientAuth,codeSigning',
      '-addext',
      'keyUsage=critical,digitalSignature,keyEncipherment',
      '-addext',
      'basicConstraints=critical,CA:FALSE',
    ]);
    const dates = await withFiles({ crt }, (p) =>
      openssl(['x509', '-in', p.crt, '-noout', '-startdate', '-enddate']),
    );
    const info = parseCertificate(crt);
    expect(info.subject.commonName).toBe('node-7');
    expect(info.subject.organizations).toEqual(['os:operator', 'os:reader']);
    expect(info.dnsNames).toEqual(['node-7', 'node-7.lan']);
    expect(info.ipAddresses).toEqual(['10.0.0.7', 'fd00::7']);
    expect(info.extKeyUsage).toEqual(['serverAuth', 'clientAuth', '1.3.6.1.5.5.7.3.3']);
    expect(info.keyUsage).toEqual(['digitalSignature', 'keyEncipherment']);
    expect(info.isCA).toBe(false);
    expect(info.keyAlgorithm).toBe('ed25519');
    expect(info.signatureAlgorithm).toBe('ed25519');
    expect(info.notBefore).toEqual(new Date(/notBefore=(.*)/.exec(dates.stdout)![1]!));
    expect(info.notAfter).toEqual(new Date(/notAfter=(.*)/.exec(dates.stdout)![1]!));
    expect(info.notAfter.getTime() - info.notBefore.getTime()).toBe(30 * 86_400_000);
  });

  it('reads an openssl CA with key identifiers', async () => {
    const crt = await opensslCert(['-subj', '/O=kubernetes']);
    const info = parseCertificate(crt);
    expect(info.isCA).toBe(true); // openssl req -x509 marks CA:TRUE by default
    expect(info.subjectKeyId).toMatch(/^[0-9a-f]{40}$/);
    expect(info.subject.organizations).toEqual(['kubernetes']);
  });

  it('reads RSA keys with their size', async () => {
    const key = await openssl(['genpkey', '-algorithm', 'RSA', '-pkeyopt', 'rsa_keygen_bits:2048']);
    const crt = await withFiles(
      { key: key.stdout },
      async (p) =>
        (await openssl(['req', '-x509', '-key', p.key, '-days', '1', '-subj', '/CN=kubernetes'])).stdout,
    );
    const info = parseCertificate(crt);
    expect(info.keyAlgorithm).toBe('rsa-2048');
    expect(info.signatureAlgorithm).toBe('sha256-with-rsa');
  });

  it('names what is wrong with bad input', () => {
    expect(() => parseCertificate('', 'machine.ca.crt')).toThrow('machine.ca.crt: no PEM block found');
    expect(() => parseCertificateDER(Buffer.from([0x30, 0x03, 0x02, 0x01]), 'crt')).toThrow(
      expect.objectContaining({
        code: 'invalid-certificate',
        message: 'crt: DER value at byte 0 runs past the end',
      }),
    );
    expect(() => parseCertificateDER(Buffer.from([0x30, 0x00]), 'crt')).toThrow(
      /crt: missing tbsCertificate/,
    );
  });
});
