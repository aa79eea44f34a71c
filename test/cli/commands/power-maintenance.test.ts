// keelctl reboot --wait against a node that comes back in maintenance mode (#28): the node refuses mutual
// TLS and answers Version insecurely, so the wait ends at once with what to do, not at the 30 minute timeout.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type HandlerMap, serverStreamHandler, unaryHandler } from '../../../src/api/handlers.js';
import { type ApiServer, startApiServer } from '../../../src/api/server.js';
import { run, startNode, type TestNode, testState, type Workdir, workdir } from '../fixtures.js';

let node: TestNode;
let comeback: ApiServer | undefined;
let wd: Workdir;

/** Reboot answers, then the node goes down and its port comes back as a maintenance API. */
const handlers: HandlerMap = {
  '/machine.MachineService/Read': serverStreamHandler(async (_req, send) => {
    await send({ bytes: Buffer.from('boot-1\n') });
  }),
  '/machine.MachineService/Events': serverStreamHandler(async (_req, _send, ctx) => {
    await new Promise<void>((resolve) =>
      ctx.signal.addEventListener('abort', () => resolve(), { once: true }),
    );
  }),
  '/machine.MachineService/Reboot': unaryHandler(async () => {
    setTimeout(() => void restartInMaintenance(), 200);
    return { messages: [{ actor_id: 'actor-m' }] };
  }),
};

async function restartInMaintenance(): Promise<void> {
  const address = node.server.address;
  await node.server.close({ signal: AbortSignal.timeout(5_000) });
  const { core } = await testState('maintenance');
  comeback = await startApiServer({ address, mode: 'maintenance', state: core });
}

beforeAll(async () => {
  node = await startNode('node-m', handlers);
  wd = await workdir(node.server.address);
});
afterAll(async () => {
  await comeback?.close({ signal: AbortSignal.timeout(5_000) });
  await node?.server.close({ signal: AbortSignal.timeout(5_000) });
  wd?.remove();
});

describe('keelctl reboot into maintenance mode', () => {
  it('reports the maintenance node at once and exits 1', async () => {
    const n = node.server.address;
    const r = await run(['reboot', '--timeout', '2m'], { TALOSCONFIG: wd.talosconfig });
    expect(r.stderr).toContain(`${n}: actor ID: actor-m`);
    expect(r.stderr).toMatch(
      new RegExp(
        `error: error on node ${n.replace(/\./g, '\\.')}: node came back in maintenance mode: apply a config with apply-config --insecure\\n$`,
      ),
    );
    expect(r.code).toBe(1);
    // and the node it came back as takes the insecure API, as the message says
    const v = await run(['version', '-i', '-n', n]);
    expect(v.code).toBe(0);
    // while shutdown over mutual TLS says it was refused and what to use instead
    const s = await run(['shutdown'], { TALOSCONFIG: wd.talosconfig });
    expect(s.stderr).toContain(
      `error on node ${n}: Shutdown failed: rpc error: code = Unavailable desc = mutual TLS refused`,
    );
    expect(s.stderr).toContain('a node in maintenance mode takes --insecure');
    expect(s.code).toBe(1);
  }, 60_000);
});
