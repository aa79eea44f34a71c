// The training's own client: the Version call a build's code-cache training makes over node:http2,
// against a real maintenance API on loopback (TLS, no client certificate); and the check that keeps its
// network training off any namespace but a fresh one.
import { execFileSync } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { TRAINING_UNSHARE } from '../../scripts/sea.js';
import { type ApiServer, startApiServer } from '../../src/api/server.js';
import { newInmemState } from '../../src/cosi/state/inmem/index.js';
import { askVersion, onlyLoopback } from '../../src/machined/code-cache-training.js';

let server: ApiServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const maintenance = () =>
  startApiServer({ address: '127.0.0.1:0', mode: 'maintenance', state: newInmemState() });

describe('askVersion', () => {
  it('completes when the API answers Version', async () => {
    server = await maintenance();
    await expect(askVersion(server.port)).resolves.toBeUndefined();
  });

  it('fails naming the method and the gRPC status when the call fails', async () => {
    server = await maintenance();
    // no such method: grpc-js answers UNIMPLEMENTED (12) in a reply without a body
    await expect(askVersion(server.port, '/machine.MachineService/NoSuchMethod')).rejects.toThrow(
      /\/machine\.MachineService\/NoSuchMethod: grpc-status 12/,
    );
  });

  it('fails when nothing listens', async () => {
    server = await maintenance();
    const port = server.port;
    await server.close();
    server = undefined;
    await expect(askVersion(port)).rejects.toThrow(/ECONNREFUSED/);
  });
});

describe('onlyLoopback', () => {
  const netDev = (...names: string[]) =>
    [
      'Inter-|   Receive                            |  Transmit',
      ' face |bytes    packets errs drop fifo frame compressed multicast|bytes    packets',
      ...names.map((n) => `${n.padStart(6)}: 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0`),
      '',
    ].join('\n');

  it('takes a namespace with lo alone for a fresh one', () => {
    expect(onlyLoopback(netDev('lo'))).toBe(true);
  });

  it('refuses any other link, and a namespace without lo', () => {
    expect(onlyLoopback(netDev('lo', 'eth0'))).toBe(false);
    expect(onlyLoopback(netDev('eth0'))).toBe(false);
    expect(onlyLoopback(netDev())).toBe(false);
  });

  it('takes the namespaces the build trains in (scripts/sea.ts) for fresh ones', () => {
    const inFresh = execFileSync(
      TRAINING_UNSHARE[0],
      [...TRAINING_UNSHARE.slice(1), 'cat', '/proc/self/net/dev'],
      {
        encoding: 'utf8',
      },
    );
    expect(onlyLoopback(inFresh)).toBe(true);
  });
});
