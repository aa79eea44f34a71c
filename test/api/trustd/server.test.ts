// trustd over real gRPC and TLS on loopback: a worker's CSR signed for the machine token, refused
// without it, and the serving certificate rotated in place.
import { type Client, Metadata, status } from '@grpc/grpc-js';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTrustdServer, type TrustdRoot, type TrustdServer } from '../../../src/api/trustd/index.js';
import {
  type CertificateAndKey,
  checkKeyPair,
  issueCertificate,
  newCertificateAuthority,
  newCSRAndKey,
  parseCertificate,
  profiles,
} from '../../../src/pki/index.js';
import { requestCertificate, tokenMetadata } from '../../../src/trustd/index.js';
import { inspect, verifyChain } from '../../pki/openssl.js';
import { callUnary, errorOf, serviceClient, tlsOnly } from '../fixtures.js';
import { servedCertificate, TOKEN } from './fixtures.js';

let os: CertificateAndKey;
let served: CertificateAndKey;
let root: TrustdRoot;
beforeAll(async () => {
  os = await newCertificateAuthority({ organizations: ['talos'] });
  served = await issueCertificate(
    os,
    profiles.trustdServer({ dnsNames: ['cp1'], ipAddresses: ['127.0.0.1'] }, 'cp1.lan'),
  );
  root = { issuingCA: os, acceptedCAs: [{ crt: os.crt }], token: TOKEN };
});

const servers: TrustdServer[] = [];
const clients: Client[] = [];
afterEach(async () => {
  for (const c of clients.splice(0)) c.close();
  await Promise.all(servers.splice(0).map((s) => s.close({ signal: AbortSignal.timeout(5_000) })));
});

async function start(r: () => Promise<TrustdRoot> = async () => root): Promise<TrustdServer> {
  const s = await startTrustdServer({ address: '127.0.0.1:0', server: served, root: r });
  servers.push(s);
  return s;
}

const worker = { commonName: 'w1.lan', dnsNames: ['w1'], ipAddresses: ['10.5.0.3', '127.0.0.1'] };

describe('trustd server', () => {
  it('signs a CSR sent with the machine token: a certificate for the CSR’s key and SANs, serverAuth only', async () => {
    const s = await start();
    const { csr, key } = await newCSRAndKey(os.crt, { ...worker, organizations: ['os:admin'] });
    const issued = await requestCertificate({
      endpoints: ['127.0.0.1'],
      port: s.port,
      token: TOKEN,
      acceptedCAs: os.crt,
      csr,
      signal: AbortSignal.timeout(10_000),
    });
    expect(issued.ca).toBe(os.crt);
    checkKeyPair({ crt: issued.crt, key });
    expect((await verifyChain(os.crt, issued.crt, ['-purpose', 'sslserver'])).stdout).toContain(': OK');
    const view = await inspect(issued.crt);
    expect(view.subject).toBe('CN = w1.lan');
    expect(view.ext['X509v3 Extended Key Usage']).toBe('TLS Web Server Authentication');
    const info = parseCertificate(issued.crt);
    expect(info.dnsNames).toEqual(['w1']);
    expect(info.ipAddresses).toEqual(['10.5.0.3', '127.0.0.1']);
  });

  it('refuses a wrong or missing token with Unauthenticated, as upstream', async () => {
    const s = await start();
    const c = serviceClient('securityapi.SecurityService', `127.0.0.1:${s.port}`, tlsOnly(os.crt));
    clients.push(c);
    const { csr } = await newCSRAndKey(os.crt, worker);
    const wrong = await errorOf(callUnary(c, 'Certificate', { csr: Buffer.from(csr) }, tokenMetadata('x')));
    expect(wrong.code).toBe(status.UNAUTHENTICATED);
    expect(wrong.details).toBe('invalid token');
    const missing = await errorOf(callUnary(c, 'Certificate', { csr: Buffer.from(csr) }, new Metadata()));
    expect(missing.code).toBe(status.UNAUTHENTICATED);
    expect(missing.details).toBe('missing token');
    // the token is checked before the CSR: an unauthenticated caller learns nothing about it
    const junk = await errorOf(callUnary(c, 'Certificate', { csr: Buffer.from('junk') }, tokenMetadata('x')));
    expect(junk.code).toBe(status.UNAUTHENTICATED);
    const bad = await errorOf(
      callUnary(c, 'Certificate', { csr: Buffer.from('junk') }, tokenMetadata(TOKEN)),
    );
    expect(bad.code).toBe(status.INVALID_ARGUMENT);
    expect(bad.details).toBe('failed to decode CSR');
  });

  it('reads the token at every call: a changed machine token applies at once', async () => {
    let current = root;
    const s = await start(async () => current);
    const c = serviceClient('securityapi.SecurityService', `127.0.0.1:${s.port}`, tlsOnly(os.crt));
    clients.push(c);
    const { csr } = await newCSRAndKey(os.crt, worker);
    await callUnary(c, 'Certificate', { csr: Buffer.from(csr) }, tokenMetadata(TOKEN));
    current = { ...root, token: 'zzzzzz.zzzzzzzzzzzzzzzz' };
    const old = await errorOf(callUnary(c, 'Certificate', { csr: Buffer.from(csr) }, tokenMetadata(TOKEN)));
    expect(old.code).toBe(status.UNAUTHENTICATED);
  });

  it('serves a rotated certificate to new handshakes', async () => {
    const s = await start();
    const handshake = () => servedCertificate(s.port, os.crt, 'cp1');
    const first = await handshake();
    expect(parseCertificate(served.crt).der.equals(first)).toBe(true);
    const next = await issueCertificate(
      os,
      profiles.trustdServer({ dnsNames: ['cp1'], ipAddresses: ['127.0.0.1'] }, 'cp1.lan'),
    );
    s.rotate(next);
    const second = await handshake();
    expect(parseCertificate(next.crt).der.equals(second)).toBe(true);
  });
});
