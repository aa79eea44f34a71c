// A maintenance API that listens before its node has handlers (deferHandlers): Version answers at once,
// every other call waits for serve(), and a closing server fails the calls still waiting.

import { setTimeout as sleep } from 'node:timers/promises';
import { type Client, status } from '@grpc/grpc-js';
import { afterEach, describe, expect, it } from 'vitest';
import { serverStreamHandler, unaryHandler } from '../../src/api/handlers.js';
import { type ApiServer, startApiServer } from '../../src/api/server.js';
import { keelVersion, wireTag } from '../../src/api/version.js';
import { settled } from '../cosi/controller/internal/settled.js';
import { callStream, callUnary, errorOf, insecure, nodeState, serviceClient } from './fixtures.js';

const servers: ApiServer[] = [];
const clients: Client[] = [];
afterEach(async () => {
  for (const c of clients.splice(0)) c.close();
  await Promise.all(servers.splice(0).map((s) => s.close({ signal: AbortSignal.timeout(5_000) })));
});

/** a maintenance API with deferred handlers, and insecure clients of two of its services */
async function deferred(): Promise<{ server: ApiServer; machine: Client; state: Client }> {
  const server = await startApiServer({
    address: '127.0.0.1:0',
    mode: 'maintenance',
    state: await nodeState(),
    deferHandlers: true,
  });
  servers.push(server);
  const machine = serviceClient('machine.MachineService', server.address, insecure());
  const state = serviceClient('cosi.resource.State', server.address, insecure());
  clients.push(machine, state);
  return { server, machine, state };
}

const HOSTNAME = '/machine.MachineService/Hostname';
const hostnameHandler = unaryHandler(async () => ({ messages: [{ hostname: 'node-1' }] }));
const plainOne = { namespace: 'runtime', type: 'PlainThings.test.keel.dev', id: 'one' };

describe('an API server with deferred handlers', () => {
  it('answers Version at once; other calls, State too, wait for serve() and are then served', async () => {
    const { server, machine, state } = await deferred();
    const version = await callUnary(machine, 'Version', {});
    expect((version.messages as Record<string, unknown>[])[0]!.version).toEqual({
      ...keelVersion(),
      tag: wireTag(keelVersion().tag),
    });

    const hostname = callUnary(machine, 'Hostname', {});
    const get = callUnary(state, 'Get', plainOne);
    await sleep(200);
    expect(await settled(hostname)).toBe(false);
    expect(await settled(get)).toBe(false);

    server.serve({ [HOSTNAME]: hostnameHandler });
    expect(((await hostname).messages as Record<string, unknown>[])[0]!.hostname).toBe('node-1');
    expect(((await get).resource as { metadata: { id: string } }).metadata.id).toBe('one');
    // what serve() did not hand over is unimplemented, as on any server
    expect((await errorOf(callUnary(machine, 'ApplyConfiguration', {}))).code).toBe(status.UNIMPLEMENTED);
  });

  it('counts its first client as served once one of its calls waits for the handlers', async () => {
    const { server, machine } = await deferred();
    await callUnary(machine, 'Version', {});
    // the client's connection stays open: only a call that needs the node ends the wait
    expect(await settled(server.firstClient)).toBe(false);
    const hostname = callUnary(machine, 'Hostname', {});
    await sleep(100);
    expect(await settled(server.firstClient)).toBe(true);
    server.serve({ [HOSTNAME]: hostnameHandler });
    await hostname;
  });

  it('waits for no first client when told none can come yet (a node still without an address)', async () => {
    const server = await startApiServer({
      address: '127.0.0.1:0',
      mode: 'maintenance',
      state: await nodeState(),
      deferHandlers: true,
      firstClientHoldMs: 0,
    });
    servers.push(server);
    await sleep(10);
    expect(await settled(server.firstClient)).toBe(true);
  });

  it('fails the calls still waiting with UNAVAILABLE when it closes', async () => {
    const { server, machine, state } = await deferred();
    const hostname = errorOf(callUnary(machine, 'Hostname', {}));
    const get = errorOf(callUnary(state, 'Get', plainOne));
    await sleep(100);
    await server.close({ signal: AbortSignal.timeout(5_000) });
    expect((await hostname).code).toBe(status.UNAVAILABLE);
    expect((await get).code).toBe(status.UNAVAILABLE);
  });

  it('ends a State watch still waiting once, with UNAVAILABLE, when it closes', async () => {
    const { server, state } = await deferred();
    const watch = errorOf(
      callStream(state, 'Watch', { namespace: 'runtime', type: plainOne.type, api_version: 1 }),
    );
    await sleep(100);
    await server.close({ signal: AbortSignal.timeout(5_000) });
    const err = await watch;
    expect(err.code).toBe(status.UNAVAILABLE);
    expect(err.details).toContain('shutting down');
  });

  it('checks what serve() hands over, and takes handlers once', async () => {
    const { server } = await deferred();
    expect(() => server.serve({ '/machine.MachineService/Dmesg': unaryHandler(async () => ({})) })).toThrow(
      /Dmesg: is unary, the method is server-stream/,
    );
    server.serve({ '/machine.MachineService/Dmesg': serverStreamHandler(async () => {}) });
    expect(() => server.serve({})).toThrow(/already served/);
  });
});
