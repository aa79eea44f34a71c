// whenQuiet tells once per busy period that no connection has been open on the API's port for a while.
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { whenQuiet } from '../../src/api/quiet.js';
import { startApiServer } from '../../src/api/server.js';
import { callUnary, mintPKI, mtls, nodeState, serviceClient } from './fixtures.js';
import type { Cleanups } from './loopback.js';
import { closed, listening, dial as loopbackDial } from './loopback.js';

const cleanups: Cleanups = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function listeningPort(): Promise<number> {
  return ((await listening(cleanups)).address() as { port: number }).port;
}

const dial = (port: number) => loopbackDial(port, cleanups);

/** until waits for `cond` (a loaded host may take its time), failing after 10 s */
async function until(cond: () => boolean): Promise<void> {
  for (const deadline = Date.now() + 10_000; !cond(); await sleep(20))
    if (Date.now() > deadline) throw new Error(`still not so after 10 s: ${cond}`);
}

const QUIET = 150;

describe('whenQuiet', () => {
  it('tells once the last connection has been closed for the quiet time, once per busy period', async () => {
    const port = await listeningPort();
    let told = 0;
    cleanups.push(whenQuiet(port, { quietMs: QUIET, onQuiet: () => told++ }));
    const a = await dial(port);
    const b = await dial(port);
    await closed(a);
    await sleep(QUIET * 2);
    expect(told, 'one connection still open').toBe(0);
    await closed(b);
    await until(() => told === 1);
    await sleep(QUIET * 2);
    expect(told, 'quiet since: nothing new to tell').toBe(1);
    await closed(await dial(port));
    await until(() => told === 2);
  });

  it('starts the quiet time again when a connection comes before it has passed', async () => {
    const port = await listeningPort();
    let told = 0;
    const quietMs = 1_000;
    cleanups.push(whenQuiet(port, { quietMs, onQuiet: () => told++ }));
    await closed(await dial(port));
    const again = await dial(port);
    await sleep(quietMs * 1.5);
    expect(told).toBe(0);
    await closed(again);
    await until(() => told === 1);
  });

  it("ignores other ports' connections, and tells nothing once stopped", async () => {
    const port = await listeningPort();
    const other = await listeningPort();
    let told = 0;
    const stop = whenQuiet(port, { quietMs: QUIET, onQuiet: () => told++ });
    cleanups.push(stop);
    await closed(await dial(other));
    await sleep(QUIET * 2);
    expect(told).toBe(0);
    const last = await dial(port);
    stop();
    await closed(last);
    await sleep(QUIET * 2);
    expect(told).toBe(0);
  });

  it('is told by an API server after a gRPC client has gone', async () => {
    const pki = await mintPKI();
    let told = 0;
    const s = await startApiServer({
      address: '127.0.0.1:0',
      mode: 'normal',
      state: await nodeState(),
      identity: { ca: pki.osCA.crt, server: pki.server },
      onQuiet: () => told++,
      quietMs: QUIET,
    });
    cleanups.push(() => s.close({ signal: AbortSignal.timeout(5_000) }));
    const c = serviceClient('machine.MachineService', s.address, mtls(pki.osCA.crt, pki.reader));
    await callUnary(c, 'Version', {});
    await sleep(QUIET * 2);
    expect(told, 'the client still connected').toBe(0);
    c.close();
    await until(() => told === 1);
  });
});
