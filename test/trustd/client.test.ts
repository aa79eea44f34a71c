// The worker's side against a real trustd on loopback: it waits calmly for a control plane that is not
// up yet, trusts only the accepted CAs, keeps asking after a refusal, and stops when told to.
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../scripts/lib/free-port.js';
import { startTrustdServer, type TrustdServer } from '../../src/api/trustd/index.js';
import {
  type CertificateAndKey,
  issueCertificate,
  newCertificateAuthority,
  newCSRAndKey,
  profiles,
} from '../../src/pki/index.js';
import { isUnauthenticated, requestCertificate, TrustdError } from '../../src/trustd/index.js';

const TOKEN = 'abcdef.0123456789abcdef';
const FAST = { initialMs: 20, maxMs: 100 };
let os: CertificateAndKey;
let foreign: CertificateAndKey;
let served: CertificateAndKey;
let csr: string;
beforeAll(async () => {
  [os, foreign] = await Promise.all([
    newCertificateAuthority({ organizations: ['talos'] }),
    newCertificateAuthority({ organizations: ['talos'] }),
  ]);
  served = await issueCertificate(
    os,
    profiles.trustdServer({ dnsNames: [], ipAddresses: ['127.0.0.1'] }, 'cp'),
  );
  ({ csr } = await newCSRAndKey(os.crt, { commonName: 'w1', ipAddresses: ['127.0.0.1'] }));
});

const servers: TrustdServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close({ signal: AbortSignal.timeout(5_000) })));
});

const serve = async (port: number, server = served) => {
  const s = await startTrustdServer({
    address: `127.0.0.1:${port}`,
    server,
    root: async () => ({ issuingCA: os, acceptedCAs: [{ crt: os.crt }], token: TOKEN }),
  });
  servers.push(s);
  return s;
};

describe('requestCertificate', () => {
  it('asks again until a control plane answers', async () => {
    const port = await freePort();
    const failures: TrustdError[] = [];
    const issued = requestCertificate({
      endpoints: ['127.0.0.1'],
      port,
      token: TOKEN,
      acceptedCAs: os.crt,
      csr,
      retry: FAST,
      signal: AbortSignal.timeout(20_000),
      // the control plane comes up after the worker's second failed round
      onRetry: (e) => {
        failures.push(e);
        if (failures.length === 2) void serve(port);
      },
    });
    expect((await issued).crt).toContain('BEGIN CERTIFICATE');
    expect(failures.length).toBeGreaterThanOrEqual(2);
    expect(failures[0]).toBeInstanceOf(TrustdError);
    expect(failures[0]!.message).toContain(`trustd at 127.0.0.1:${port}`);
  });

  it('tries every endpoint of a round, the dead ones too', async () => {
    const [dead, live] = await Promise.all([freePort(), freePort()]);
    await serve(live);
    const issued = await requestCertificate({
      endpoints: [`127.0.0.1:${dead}`, `127.0.0.1:${live}`],
      token: TOKEN,
      acceptedCAs: os.crt,
      csr,
      retry: FAST,
      signal: AbortSignal.timeout(10_000),
    });
    expect(issued.ca).toBe(os.crt);
  });

  it('does not talk to a trustd whose certificate another CA signed', async () => {
    const port = await freePort();
    await serve(
      port,
      await issueCertificate(
        foreign,
        profiles.trustdServer({ dnsNames: [], ipAddresses: ['127.0.0.1'] }, 'x'),
      ),
    );
    const stop = new AbortController();
    const failures: TrustdError[] = [];
    const p = requestCertificate({
      endpoints: ['127.0.0.1'],
      port,
      token: TOKEN,
      acceptedCAs: os.crt,
      csr,
      retry: FAST,
      signal: stop.signal,
      onRetry: (e) => {
        failures.push(e);
        stop.abort(new Error('enough'));
      },
    });
    await expect(p).rejects.toThrow('enough');
    expect(failures[0]!.code).toBe('call-failed');
    expect(isUnauthenticated(failures[0])).toBe(false);
  });

  it('reports a refused token and keeps asking until stopped', async () => {
    const port = await freePort();
    await serve(port);
    const stop = new AbortController();
    const failures: TrustdError[] = [];
    const p = requestCertificate({
      endpoints: ['127.0.0.1'],
      port,
      token: 'wrong.token',
      acceptedCAs: os.crt,
      csr,
      retry: FAST,
      signal: stop.signal,
      onRetry: (e) => {
        failures.push(e);
        if (failures.length === 2) stop.abort(new Error('stopped'));
      },
    });
    await expect(p).rejects.toThrow('stopped');
    expect(failures.every(isUnauthenticated)).toBe(true);
    expect(failures[0]!.message).toContain('invalid token');
  });

  it('needs an endpoint', async () => {
    await expect(
      requestCertificate({ endpoints: [], token: TOKEN, acceptedCAs: os.crt, csr }),
    ).rejects.toMatchObject({
      code: 'no-endpoints',
    });
  });
});
