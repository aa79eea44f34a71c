// An accepted API connection holds the controller runtime's turns until it closes (clientsFirst).
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import {
  CONNECTION_HOLD_MS,
  clientsFirst,
  FIRST_CLIENT_HOLD_MS,
  FIRST_CONNECTION_HOLD_MS,
} from '../../src/api/client-first.js';
import { type ApiServer, startApiServer } from '../../src/api/server.js';
import { nextTurn } from '../../src/cosi/controller/index.js';
import { settled } from '../cosi/controller/internal/settled.js';
import { nodeState } from './fixtures.js';
import { type Cleanups, closed, listening as listeningOn, dial as loopbackDial } from './loopback.js';

const cleanups: Cleanups = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const listening = () => listeningOn(cleanups);
const dial = (port: number) => loopbackDial(port, cleanups);

/** a hold recorder: the bounds asked for, and how many holds are still held */
function recorder() {
  const bounds: number[] = [];
  let held = 0;
  const hold = (maxMs: number) => {
    bounds.push(maxMs);
    held++;
    let on = true;
    return () => {
      if (on) held--;
      on = false;
    };
  };
  return { hold, bounds, held: () => held };
}

describe('clientsFirst', () => {
  it('holds from accept until the connection closes, bounded', async () => {
    const s = await listening();
    const port = (s.address() as { port: number }).port;
    const r = recorder();
    cleanups.push(clientsFirst(port, { hold: r.hold }));
    const c = await dial(port);
    expect(r.bounds).toEqual([CONNECTION_HOLD_MS]);
    expect(r.held()).toBe(1);
    await closed(c);
    await sleep(20);
    expect(r.held()).toBe(0);
  });

  it('holds from the start for a first client, until its connection closes', async () => {
    const s = await listening();
    const port = (s.address() as { port: number }).port;
    const r = recorder();
    cleanups.push(clientsFirst(port, { hold: r.hold, firstClientMs: 750 }));
    expect(r.bounds).toEqual([750]);
    expect(r.held()).toBe(1);
    const c = await dial(port);
    expect(r.bounds).toEqual([750, FIRST_CONNECTION_HOLD_MS]);
    expect(r.held()).toBe(2);
    const later = await dial(port);
    expect(r.bounds).toEqual([750, FIRST_CONNECTION_HOLD_MS, CONNECTION_HOLD_MS]);
    await closed(later);
    await closed(c);
    await sleep(20);
    expect(r.held()).toBe(0);
  });

  it('ends a first-client hold nobody came for when stopped', () => {
    const r = recorder();
    const stop = clientsFirst(1, { hold: r.hold, firstClientMs: 750 });
    expect(r.held()).toBe(1);
    stop();
    expect(r.held()).toBe(0);
  });

  it('tells once when the first client is gone: its connection closed, its bound passed, or stopped', async () => {
    const s = await listening();
    const port = (s.address() as { port: number }).port;
    let told = 0;
    const onFirstClientGone = () => told++;
    cleanups.push(clientsFirst(port, { hold: recorder().hold, firstClientMs: 5_000, onFirstClientGone }));
    const first = await dial(port);
    const second = await dial(port);
    expect(told).toBe(0);
    await closed(first);
    await sleep(20);
    expect(told).toBe(1);
    await closed(second);
    await sleep(20);
    expect(told).toBe(1);

    let bounded = 0;
    cleanups.push(
      clientsFirst(port, { hold: recorder().hold, firstClientMs: 50, onFirstClientGone: () => bounded++ }),
    );
    await sleep(120);
    expect(bounded).toBe(1);

    let stopped = 0;
    const stop = clientsFirst(port, {
      hold: recorder().hold,
      firstClientMs: 5_000,
      onFirstClientGone: () => stopped++,
    });
    stop();
    stop();
    expect(stopped).toBe(1);
  });

  it('waits for a first client that came past firstClientMs, up to FIRST_CONNECTION_HOLD_MS after it came', async () => {
    const s = await listening();
    const port = (s.address() as { port: number }).port;
    let told = 0;
    cleanups.push(
      clientsFirst(port, { hold: recorder().hold, firstClientMs: 150, onFirstClientGone: () => told++ }),
    );
    const c = await dial(port);
    await sleep(300);
    expect(told).toBe(0);
    await closed(c);
    await sleep(20);
    expect(told).toBe(1);

    let bounded = 0;
    cleanups.push(
      clientsFirst(port, { hold: recorder().hold, firstClientMs: 50, onFirstClientGone: () => bounded++ }),
    );
    await dial(port);
    await sleep(FIRST_CONNECTION_HOLD_MS - 300);
    expect(bounded).toBe(0);
    await sleep(500);
    expect(bounded).toBe(1);
  });

  it('ignores connections to other ports, and stops when told', async () => {
    const mine = await listening();
    const other = await listening();
    const r = recorder();
    const stop = clientsFirst((mine.address() as { port: number }).port, { hold: r.hold });
    await dial((other.address() as { port: number }).port);
    expect(r.bounds).toEqual([]);
    stop();
    await dial((mine.address() as { port: number }).port);
    expect(r.bounds).toEqual([]);
  });
});

describe('the API server puts a connecting client first', () => {
  let server: ApiServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('gives the runtime no turn while a connection is open, and resumes when it closes', async () => {
    server = await startApiServer({ address: '127.0.0.1:0', mode: 'maintenance', state: await nodeState() });
    const c = await dial(server.port);
    const turn = nextTurn();
    expect(await settled(turn)).toBe(false);
    await closed(c);
    await sleep(20);
    expect(await settled(turn)).toBe(true);
  });

  it('in maintenance mode, gives no turn from listening until the first client has come and gone', async () => {
    server = await startApiServer({ address: '127.0.0.1:0', mode: 'maintenance', state: await nodeState() });
    const turn = nextTurn();
    await sleep(50);
    expect(await settled(turn)).toBe(false);
    await closed(await dial(server.port));
    await sleep(20);
    expect(await settled(turn)).toBe(true);
  });

  it('in maintenance mode, gives turns again after FIRST_CLIENT_HOLD_MS if nobody comes', async () => {
    server = await startApiServer({ address: '127.0.0.1:0', mode: 'maintenance', state: await nodeState() });
    const turn = nextTurn();
    await sleep(FIRST_CLIENT_HOLD_MS / 2);
    expect(await settled(turn)).toBe(false);
    await sleep(FIRST_CLIENT_HOLD_MS / 2 + 100);
    expect(await settled(turn)).toBe(true);
  });

  it('no longer holds anything once closed', async () => {
    const s = await startApiServer({ address: '127.0.0.1:0', mode: 'maintenance', state: await nodeState() });
    const port = s.port;
    await s.close();
    // a plain listener on the same port now: its connections are nobody's clients
    await listeningOn(cleanups, port);
    await dial(port);
    expect(await settled(nextTurn())).toBe(true);
  });
});
