// The training's own client: the Version call a build's code-cache training makes over node:http2,
// against a real maintenance API on loopback (TLS, no client certificate).
import { afterEach, describe, expect, it } from 'vitest';
import { type ApiServer, startApiServer } from '../../src/api/server.js';
import { newInmemState } from '../../src/cosi/state/inmem/index.js';
import { askVersion } from '../../src/machined/code-cache-training.js';

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
