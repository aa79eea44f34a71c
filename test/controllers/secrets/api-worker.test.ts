// secrets.APIController on a worker: apid's server certificate comes from trustd (here a requester that
// signs in process, as trustd would), is kept until its half-life, and a request under way is dropped
// when an input changes. The real trustd is tested in test/api/trustd and with two nodes in
// test/integration/talosctl/worker.test.ts.
import { beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import {
  apiCertSANs,
  keepsWorkerCerts,
  newAPIController,
  osRootOf,
  trustdEndpointsOf,
  workerAPICerts,
  workerCA,
} from '../../../controllers/secrets/index.js';
import { MachineType } from '../../../resources/config/index.js';
import { API, CertSAN, OSRoot } from '../../../resources/secrets/index.js';
import { applyPatches, loadPatch } from '../../../src/config/patch/index.js';
import { assertResource } from '../../../src/cosi/testing/assert-resources.js';
import {
  type CertificateAndKey,
  newCSRAndKey,
  parseCertificate,
  parseCertificateRequest,
  profiles,
  signCertificateRequest,
} from '../../../src/pki/index.js';
import type { CertificateRequestOptions, IssuedCertificate } from '../../../src/trustd/index.js';
import {
  type Cluster,
  type FakeClock,
  fakeClock,
  hostname,
  machineConfig,
  mintCluster,
  nodeAddresses,
  startRuntime,
} from './env.js';
import { verifyLeaf } from './openssl.js';

const HOUR = 3_600_000;
let cluster: Cluster;
let os: CertificateAndKey;
beforeAll(async () => {
  cluster = await mintCluster();
  os = osRootOf(cluster.controlplane).issuingCA!;
});

const host = hostname('w1', 'example.com').spec;
const addrs = nodeAddresses('10.5.0.3/24').spec;

/** fakeTrustd signs as trustd does, on the test's clock, and records every request. */
function fakeTrustd(clock: FakeClock) {
  const calls: CertificateRequestOptions[] = [];
  let hold: (o: CertificateRequestOptions) => boolean = () => false;
  const request = async (o: CertificateRequestOptions): Promise<IssuedCertificate> => {
    calls.push(o);
    // a held request hangs as one to an unreachable control plane would, until its signal aborts
    if (hold(o))
      await new Promise((_, reject) => o.signal?.addEventListener('abort', () => reject(o.signal?.reason)));
    return {
      ca: os.crt,
      crt: signCertificateRequest(os, o.csr, { ...profiles.trustdSigning(), now: clock.now() }),
    };
  };
  return {
    calls,
    request,
    /** holdWhile makes every request `pred` matches hang until aborted */
    holdWhile(pred: (o: CertificateRequestOptions) => boolean) {
      hold = pred;
    },
  };
}

async function startWorker(clock: FakeClock, trustd: ReturnType<typeof fakeTrustd>) {
  const env = startRuntime([
    newAPIController({ clock, requestCertificate: trustd.request, trustdPort: 41234 }),
  ]);
  const root = osRootOf(cluster.worker);
  await env.state.create(MachineType.new('config', 'machine-type', { type: 'worker' }));
  await env.state.create(machineConfig(cluster.worker));
  await env.state.create(OSRoot.new('secrets', 'os', root));
  await env.state.create(CertSAN.new('secrets', 'api', apiCertSANs(root, host, addrs)));
  return { env, root };
}

const serial = (p: CertificateAndKey | null | undefined) => (p ? parseCertificate(p.crt).serialNumber : '');

describe('secrets.APIController on a worker', () => {
  it('serves the certificate trustd signed for its CSR: server only, trustd’s CAs accepted', async ({
    signal,
  }) => {
    const clock = fakeClock();
    const trustd = fakeTrustd(clock);
    const { env, root } = await startWorker(clock, trustd);
    onTestFinished(env.stop);
    const api = await assertResource(env.state, API, 'api', (r) => expect(r.spec.server).not.toBeNull(), {
      signal,
    });
    expect(root.issuingCA).toBeNull(); // a worker holds no CA key
    expect(api.spec).toMatchObject({
      client: null,
      skipVerifyingClientCert: false,
      acceptedCAs: [{ crt: os.crt }],
    });
    const server = await verifyLeaf(os.crt, api.spec.server!, 'sslserver');
    expect(server.view.subject).toBe('CN = w1.example.com');
    expect(server.view.publicKeyAlgorithm).toBe('ED25519');
    expect(server.sans).toEqual(
      expect.arrayContaining(['DNS:w1', 'IP Address:10.5.0.3', 'IP Address:127.0.0.1']),
    );
    expect(trustd.calls).toHaveLength(1);
    expect(trustd.calls[0]).toMatchObject({ endpoints: ['cp.example.com'], port: 41234, token: root.token });
    expect(trustd.calls[0]!.acceptedCAs).toBe(os.crt);
  });

  it('asks again at the half-life, not before', async ({ signal }) => {
    const clock = fakeClock(new Date(Math.floor(Date.now() / 1000) * 1000));
    const trustd = fakeTrustd(clock);
    const { env } = await startWorker(clock, trustd);
    onTestFinished(env.stop);
    const first = await assertResource(env.state, API, 'api', (r) => expect(r.spec.server).not.toBeNull(), {
      signal,
    });
    await clock.armed(1);
    clock.advance(12 * HOUR - 1);
    expect(trustd.calls).toHaveLength(1);
    clock.advance(1);
    await assertResource(
      env.state,
      API,
      'api',
      (r) => expect(serial(r.spec.server)).not.toBe(serial(first.spec.server)),
      { signal },
    );
    expect(trustd.calls).toHaveLength(2);
  });

  it('drops a request under way when an input changes, and asks with the new SANs', async ({ signal }) => {
    const clock = fakeClock();
    const trustd = fakeTrustd(clock);
    const commonName = (o: CertificateRequestOptions) => parseCertificateRequest(o.csr).subject.commonName;
    trustd.holdWhile((o) => commonName(o) === 'w1.example.com');
    const { env, root } = await startWorker(clock, trustd);
    onTestFinished(env.stop);
    await expect.poll(() => trustd.calls.length).toBeGreaterThan(0);
    await env.state.modify(CertSAN.new('secrets', 'api'), (r) => {
      r.spec = apiCertSANs(root, hostname('w2', 'example.com').spec, addrs);
    });
    const api = await assertResource(env.state, API, 'api', (r) => expect(r.spec.server).not.toBeNull(), {
      signal,
    });
    expect(parseCertificate(api.spec.server!.crt).subject.commonName).toBe('w2.example.com');
    const held = trustd.calls.filter((o) => commonName(o) === 'w1.example.com');
    expect(held.length).toBeGreaterThan(0);
    expect(held.every((o) => o.signal?.aborted)).toBe(true);
  });
});

describe('worker helpers', () => {
  it('ask the host of the cluster endpoint', () => {
    expect(trustdEndpointsOf(cluster.worker)).toEqual(['cp.example.com']);
    const v6 = applyPatches(cluster.worker, [
      loadPatch(JSON.stringify({ cluster: { controlPlane: { endpoint: 'https://[fd00::1]:6443' } } })),
    ]);
    expect(trustdEndpointsOf(v6)).toEqual(['fd00::1']);
  });

  it('keep a certificate whose start is a little ahead of this node’s clock (signed on another)', async () => {
    const root = osRootOf(cluster.worker);
    const sans = apiCertSANs(root, host, addrs);
    const want = profiles.apidServer({ dnsNames: sans.dnsNames, ipAddresses: sans.ips }, sans.fqdn);
    const { csr, key } = await newCSRAndKey(os.crt, {
      commonName: sans.fqdn,
      dnsNames: sans.dnsNames,
      ipAddresses: sans.ips,
    });
    const signedAt = new Date(Math.floor(Date.now() / 1000) * 1000);
    const crt = signCertificateRequest(os, csr, { ...profiles.trustdSigning(), now: signedAt });
    const held = workerAPICerts({ ca: os.crt, crt }, key);
    const ca = workerCA(root);
    const at = (ms: number) => new Date(signedAt.getTime() + ms);
    expect(keepsWorkerCerts(held, want, ca, at(-5_000))).toBe(true);
    expect(keepsWorkerCerts(held, want, ca, at(12 * HOUR - 1))).toBe(true);
    expect(keepsWorkerCerts(held, want, ca, at(12 * HOUR))).toBe(false);
    // a control plane's set (with a client certificate) or other SANs are asked for again
    expect(keepsWorkerCerts({ ...held, client: held.server }, want, ca, at(0))).toBe(false);
    expect(keepsWorkerCerts(held, { ...want, dnsNames: ['other'] }, ca, at(0))).toBe(false);
  });

  it('refuse a certificate that is not for the CSR’s key', async () => {
    const a = await newCSRAndKey(os.crt, { commonName: 'a' });
    const b = await newCSRAndKey(os.crt, { commonName: 'b' });
    const crt = signCertificateRequest(os, a.csr, profiles.trustdSigning());
    expect(() => workerAPICerts({ ca: os.crt, crt }, b.key)).toThrow(/ApiCertificates.*key/);
  });
});
