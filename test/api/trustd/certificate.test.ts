// trustd's signing of a worker CSR, without the network: what the certificate holds and the errors it
// gives, with upstream's status codes and texts.
import { beforeAll, describe, expect, it } from 'vitest';
import { signWorkerCSR, type TrustdRoot } from '../../../src/api/trustd/index.js';
import {
  type CertificateAndKey,
  checkKeyPair,
  encodePEM,
  newCertificateAuthority,
  newCSRAndKey,
  PEMLabel,
  parseCertificate,
} from '../../../src/pki/index.js';
import { inspect, verifyChain } from '../../pki/openssl.js';

let os: CertificateAndKey;
let other: CertificateAndKey;
let root: TrustdRoot;
beforeAll(async () => {
  [os, other] = await Promise.all([
    newCertificateAuthority({ organizations: ['talos'] }),
    newCertificateAuthority({ organizations: ['talos'] }),
  ]);
  // an older CA still accepted, then the issuing one
  root = { issuingCA: os, acceptedCAs: [{ crt: other.crt }, { crt: os.crt }], token: 't' };
});

const worker = { commonName: 'w1.lan', dnsNames: ['w1', 'w1.lan'], ipAddresses: ['10.5.0.3', '127.0.0.1'] };

describe('trustd signs a worker CSR', () => {
  it('with the OS CA: serverAuth only, the CSR’s SANs and CN, its roles removed, the accepted CAs joined', async () => {
    const { csr, key } = await newCSRAndKey(os.crt, { ...worker, organizations: ['os:admin'] });
    const now = new Date(Math.floor(Date.now() / 1000) * 1000);
    const out = signWorkerCSR(root, csr, now);
    checkKeyPair({ crt: out.crt, key });
    expect(out.ca).toBe(other.crt + os.crt);
    expect(out.request.subject.organizations).toEqual(['os:admin']);
    expect((await verifyChain(os.crt, out.crt, ['-purpose', 'sslserver'])).stdout).toContain(': OK');
    // useless as a client certificate, whatever the CSR asked for
    expect((await verifyChain(os.crt, out.crt, ['-purpose', 'sslclient'])).code).not.toBe(0);
    const view = await inspect(out.crt);
    expect(view.subject).toBe('CN = w1.lan');
    expect(view.ext['X509v3 Extended Key Usage']).toBe('TLS Web Server Authentication');
    expect(view.ext['X509v3 Key Usage']).toBe('Digital Signature');
    expect(view.ext['X509v3 Subject Alternative Name']).toBe(
      'DNS:w1, DNS:w1.lan, IP Address:10.5.0.3, IP Address:127.0.0.1',
    );
    const info = parseCertificate(out.crt);
    expect(info.notBefore.getTime()).toBe(now.getTime());
    expect(info.notAfter.getTime() - info.notBefore.getTime()).toBe(24 * 3_600_000);
  });

  it('refuses what is not a CSR with InvalidArgument, and fails with Internal without a CA key', async () => {
    const errorOf = (f: () => unknown) => {
      try {
        f();
      } catch (e) {
        return e as { code: string; message: string };
      }
      throw new Error('expected a failure');
    };
    expect(errorOf(() => signWorkerCSR(root, 'garbage'))).toMatchObject({
      code: 'invalid-argument',
      message: 'failed to decode CSR',
    });
    const broken = encodePEM(PEMLabel.certificateRequest, Buffer.from([0x30, 0x03, 0x02, 0x01, 0x00]));
    const parse = errorOf(() => signWorkerCSR(root, broken));
    expect(parse.code).toBe('invalid-argument');
    expect(parse.message).toMatch(/^failed to parse CSR: /);
    const { csr } = await newCSRAndKey(os.crt, worker);
    const noKey = errorOf(() => signWorkerCSR({ ...root, issuingCA: null }, csr));
    expect(noKey.code).toBe('internal');
    expect(noKey.message).toMatch(/^failed to sign CSR: /);
  });
});
