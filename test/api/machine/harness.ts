// A real API server with the system-information handlers over mutual TLS, and clients from the checked-in protos.
import type { Client } from '@grpc/grpc-js';
import { afterAll, beforeAll } from 'vitest';
import type { SystemInfoDeps } from '../../../src/api/machine/index.js';
import { systemInfoHandlers } from '../../../src/api/machine/index.js';
import { type ApiServer, startApiServer } from '../../../src/api/server.js';
import { mintPKI, mtls, nodeState, serviceClient } from '../fixtures.js';

export interface Harness {
  server: ApiServer;
  client(service: string): Client;
}

/** useServer starts one server for the file's tests (admin client certificates) and stops it after them. */
export function useServer(deps: SystemInfoDeps = {}): Harness {
  const clients: Client[] = [];
  const h = {} as Harness;
  beforeAll(async () => {
    const pki = await mintPKI();
    h.server = await startApiServer({
      address: '127.0.0.1:0',
      mode: 'normal',
      state: await nodeState(),
      identity: { ca: pki.osCA.crt, server: pki.server },
      handlers: systemInfoHandlers(deps),
    });
    h.client = (service) => {
      const c = serviceClient(service, h.server.address, mtls(pki.osCA.crt, pki.admin));
      clients.push(c);
      return c;
    };
  });
  afterAll(async () => {
    for (const c of clients.splice(0)) c.close();
    await h.server?.close({ signal: AbortSignal.timeout(5_000) });
  });
  return h;
}

export type Msg = Record<string, unknown>;

/** only returns the one element of an envelope reply, failing if there are more. */
export function only(reply: Msg): Msg {
  const messages = reply.messages as Msg[];
  if (messages.length !== 1) throw new Error(`expected one message, got ${messages.length}`);
  return messages[0]!;
}
