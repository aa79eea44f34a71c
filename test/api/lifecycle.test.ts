import { connect } from 'node:tls';
import { type Client, status } from '@grpc/grpc-js';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { serverStreamHandler } from '../../src/api/handlers.js';
import { type ApiServer, startApiServer } from '../../src/api/server.js';
import { parseCertificateDER, spkiFingerprint } from '../../src/pki/index.js';
import {
  callUnary,
  errorOf,
  insecure,
  mintPKI,
  mtls,
  nodeState,
  PlainThings,
  type Reply,
  serviceClient,
  type TestPKI,
  takeStream,
  withMetadata,
} from './fixtures.js';

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

/** The SPKI fingerprint of the certificate a server presents, as `--cert-fingerprint` checks it. */
function servedFingerprint(port: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port, rejectUnauthorized: false, ALPNProtocols: ['h2'] });
    socket.once('secureConnect', () => {
      const der = socket.getPeerCertificate().raw;
      socket.destroy();
      resolve(spkiFingerprint(parseCertificateDER(der)));
    });
    socket.once('error', reject);
  });
}

describe('maintenance mode', () => {
  it('presents the certificate whose fingerprint the console shows', async () => {
    const s = await startApiServer({ address: '127.0.0.1:0', mode: 'maintenance', state: await nodeState() });
    servers.push(s);
    expect(await servedFingerprint(s.port)).toBe(s.fingerprint);
  });

  it('ignores routing keys and serves everything here', async () => {
    const s = await startApiServer({ address: '127.0.0.1:0', mode: 'maintenance', state: await nodeState() });
    servers.push(s);
    const c = serviceClient('machine.MachineService', s.address, insecure());
    clients.push(c);
    const reply = await callUnary(c, 'Version', {}, withMetadata({ nodes: '10.9.9.9', node: '10.9.9.8' }));
    expect((reply.messages as Reply[])[0]!.metadata).toBeUndefined();
  });
});

describe('closing', () => {
  it('ends open watches and follows with UNAVAILABLE and finishes without being forced', async () => {
    let started!: () => void;
    const following = new Promise<void>((r) => {
      started = r;
    });
    const s = await startApiServer({
      address: '127.0.0.1:0',
      mode: 'normal',
      state: await nodeState(),
      identity: { ca: pki.osCA.crt, server: pki.server },
      handlers: {
        // a `dmesg --follow`: sends one line, then waits until its call ends
        '/machine.MachineService/Dmesg': serverStreamHandler(async (_req, send, ctx) => {
          await send({ bytes: Buffer.from('line\n') });
          started();
          await new Promise<void>((r) => ctx.signal.addEventListener('abort', () => r(), { once: true }));
        }),
      },
    });
    servers.push(s); // closed again in afterEach should this test fail early
    const state = serviceClient('cosi.resource.State', s.address, mtls(pki.osCA.crt, pki.reader));
    const machine = serviceClient('machine.MachineService', s.address, mtls(pki.osCA.crt, pki.reader));
    clients.push(state, machine);

    const watchEnded = new Promise<number>((resolve) => {
      const call = (state as unknown as Record<string, Function>).Watch!.call(state, {
        namespace: 'runtime',
        type: PlainThings.type,
        api_version: 1,
      });
      call.on('data', () => undefined);
      call.on('error', (e: { code: number }) => resolve(e.code));
      call.on('end', () => resolve(status.OK));
    });
    const followEnded = new Promise<number>((resolve) => {
      const call = (machine as unknown as Record<string, Function>).Dmesg!.call(machine, { follow: true });
      call.on('data', () => undefined);
      call.on('error', (e: { code: number }) => resolve(e.code));
      call.on('end', () => resolve(status.OK));
    });
    await takeStream(state, 'Watch', { namespace: 'runtime', type: PlainThings.type, api_version: 1 }, 1);
    await following;

    await s.close();
    expect(await watchEnded).toBe(status.UNAVAILABLE);
    expect(await followEnded).toBe(status.UNAVAILABLE);
    expect((await errorOf(callUnary(machine, 'Version', {}))).code).toBe(status.UNAVAILABLE);
  });
});
