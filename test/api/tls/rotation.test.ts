import { connect } from 'node:tls';
import { type Client, status } from '@grpc/grpc-js';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type ApiServer, startApiServer } from '../../../src/api/server.js';
import {
  type CertificateAndKey,
  issueCertificate,
  mintTalosAPIClientCertificate,
  newCertificateAuthority,
  parseCertificate,
  profiles,
  Role,
  standardKeyLabel,
} from '../../../src/pki/index.js';
import { callUnary, errorOf, mintPKI, mtls, nodeState, serviceClient, type TestPKI } from '../fixtures.js';

let pki: TestPKI;
beforeAll(async () => {
  pki = await mintPKI();
});

const servers: ApiServer[] = [];
const clients: Client[] = [];
afterEach(async () => {
  for (const c of clients.splice(0)) c.close();
  await Promise.all(servers.splice(0).map((s) => s.close({ signal: AbortSignal.timeout(5_000) })));
});

/** servedCertificate does one TLS handshake and returns the DER the server presented. */
function servedCertificate(port: number, ca: string, client: CertificateAndKey): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const socket = connect({
      host: '127.0.0.1',
      port,
      ca,
      cert: client.crt,
      key: standardKeyLabel(client.key),
      ALPNProtocols: ['h2'],
      checkServerIdentity: () => undefined,
    });
    socket.once('secureConnect', () => {
      const raw = socket.getPeerCertificate().raw;
      socket.destroy();
      resolve(raw);
    });
    socket.once('error', reject);
  });
}

const version = async (address: string, ca: string, cert: CertificateAndKey) => {
  const c = serviceClient('machine.MachineService', address, mtls(ca, cert));
  clients.push(c);
  return callUnary(c, 'Version', {});
};

describe('certificate rotation without restart', () => {
  it('serves a renewed server certificate to new handshakes', async () => {
    const s = await startApiServer({
      address: '127.0.0.1:0',
      mode: 'normal',
      state: await nodeState(),
      identity: { ca: pki.osCA.crt, server: pki.server },
    });
    servers.push(s);
    expect(await servedCertificate(s.port, pki.osCA.crt, pki.admin)).toEqual(
      parseCertificate(pki.server.crt).der,
    );
    const renewed = await issueCertificate(
      pki.osCA,
      profiles.apidServer({ dnsNames: [], ipAddresses: ['127.0.0.1'] }, 'renewed.test'),
    );
    s.rotate({ server: renewed });
    expect(await servedCertificate(s.port, pki.osCA.crt, pki.admin)).toEqual(
      parseCertificate(renewed.crt).der,
    );
    await version(s.address, pki.osCA.crt, pki.admin);
  });

  it('switches to a new OS CA: its clients get in, the old CA`s do not', async () => {
    const s = await startApiServer({
      address: '127.0.0.1:0',
      mode: 'normal',
      state: await nodeState(),
      identity: { ca: pki.osCA.crt, server: pki.server },
    });
    servers.push(s);
    await version(s.address, pki.osCA.crt, pki.admin);

    const ca2 = await newCertificateAuthority({ organizations: ['talos'] });
    const server2 = await issueCertificate(
      ca2,
      profiles.apidServer({ dnsNames: [], ipAddresses: ['127.0.0.1'] }, 'n'),
    );
    const admin2 = await mintTalosAPIClientCertificate(ca2, { roles: [Role.admin] });
    s.rotate({ server: server2, ca: ca2.crt });

    const reply = await version(s.address, ca2.crt, admin2);
    expect((reply.messages as unknown[]).length).toBe(1);
    const err = await errorOf(version(s.address, pki.osCA.crt, pki.admin));
    expect(err.code).toBe(status.UNAVAILABLE);
  });

  it('rejects a pair whose key does not match, naming it, and keeps serving the old one', async () => {
    const s = await startApiServer({
      address: '127.0.0.1:0',
      mode: 'normal',
      state: await nodeState(),
      identity: { ca: pki.osCA.crt, server: pki.server },
    });
    servers.push(s);
    expect(() => s.rotate({ server: { crt: pki.server.crt, key: pki.admin.key } })).toThrow(
      /api server certificate/,
    );
    await version(s.address, pki.osCA.crt, pki.admin);
  });
});
