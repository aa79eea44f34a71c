// trustd as machined's service: it listens once TrustdCertificates exists, is healthy from then on,
// signs with the OS root of the moment, and serves each re-issued certificate without a restart.
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { OSRoot, Trustd } from '../../../resources/secrets/index.js';
import {
  portOf,
  TRUSTD_SERVICE,
  trustdAddressFor,
  trustdService,
} from '../../../src/machined/node/trustd-service.js';
import { newNodeState } from '../../../src/machined/node-state.js';
import type { Supervisor } from '../../../src/machined/services/supervisor.js';
import {
  type CertificateAndKey,
  issueCertificate,
  newCertificateAuthority,
  newCSRAndKey,
  parseCertificate,
  profiles,
} from '../../../src/pki/index.js';
import { requestCertificate } from '../../../src/trustd/index.js';
import { servedCertificate, TOKEN } from '../../api/trustd/fixtures.js';
import { newSupervisor } from '../services/helpers.js';
import { freePort } from './harness.js';

let os: CertificateAndKey;
const trustdCert = () =>
  issueCertificate(os, profiles.trustdServer({ dnsNames: [], ipAddresses: ['127.0.0.1'] }, 'cp'));
beforeAll(async () => {
  os = await newCertificateAuthority({ organizations: ['talos'] });
});

const supervisors: Supervisor[] = [];
afterEach(async () => {
  await Promise.all(supervisors.splice(0).map((s) => s.stopAll()));
});

/** served is the certificate a TLS handshake with 127.0.0.1:port is shown */
const served = (port: number) => servedCertificate(port, os.crt, 'cp');

describe('trustd service', () => {
  it('sits beside the API: its host, the next port (upstream’s 50001 beside 50000)', () => {
    expect(trustdAddressFor('0.0.0.0:50000')).toBe('0.0.0.0:50001');
    expect(trustdAddressFor('127.0.0.1:50001')).toBe('127.0.0.1:50002');
    expect(trustdAddressFor('10.5.0.2:0')).toBe('10.5.0.2:50001');
    expect(portOf('[::1]:41234')).toBe(41234);
  });

  it('serves once its certificate is minted, and rotates it in place', async () => {
    const state = newNodeState();
    const port = await freePort();
    const { supervisor } = newSupervisor();
    supervisors.push(supervisor);
    supervisor.load(trustdService({ state, address: () => `127.0.0.1:${port}` }));
    supervisor.start(TRUSTD_SERVICE);
    // not up without its certificate
    await expect(
      supervisor.waitFor([TRUSTD_SERVICE], { signal: AbortSignal.timeout(1_500) }),
    ).rejects.toThrow();
    const first = await trustdCert();
    await state.create(
      OSRoot.new('secrets', 'os', {
        issuingCA: os,
        acceptedCAs: [{ crt: os.crt }],
        certSANIPs: [],
        certSANDNSNames: [],
        token: TOKEN,
      }),
    );
    await state.create(Trustd.new('secrets', 'trustd', { acceptedCAs: [{ crt: os.crt }], server: first }));
    await supervisor.waitFor([TRUSTD_SERVICE], { signal: AbortSignal.timeout(10_000) });

    const { csr } = await newCSRAndKey(os.crt, { commonName: 'w1', ipAddresses: ['127.0.0.1'] });
    const issued = await requestCertificate({
      endpoints: [`127.0.0.1:${port}`],
      token: TOKEN,
      acceptedCAs: os.crt,
      csr,
      signal: AbortSignal.timeout(10_000),
    });
    expect(parseCertificate(issued.crt).subject.commonName).toBe('w1');
    expect(parseCertificate(first.crt).der.equals(await served(port))).toBe(true);

    const second = await trustdCert();
    await state.modify(Trustd.new('secrets', 'trustd'), (r) => {
      r.spec = { acceptedCAs: [{ crt: os.crt }], server: second };
    });
    await expect.poll(async () => parseCertificate(second.crt).der.equals(await served(port))).toBe(true);
  });
});
