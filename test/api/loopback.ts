// Plain TCP on loopback for the tests of what the API sees of its connections: a listening server, a
// dialled connection, its close; each registered with the test's cleanups.
import { connect, createServer, type Server, type Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

export type Cleanups = Array<() => unknown>;

/** listening starts a server on loopback (a free port unless given) that reads and drops what it is sent. */
export async function listening(cleanups: Cleanups, port = 0): Promise<Server> {
  const s = createServer((c) => c.resume());
  await new Promise<void>((ok) => s.listen(port, '127.0.0.1', ok));
  cleanups.push(() => new Promise((ok) => s.close(ok)));
  return s;
}

/** dial connects to `port` and waits until the server side has accepted too. */
export async function dial(port: number, cleanups: Cleanups): Promise<Socket> {
  const c = connect(port, '127.0.0.1');
  await new Promise((ok, fail) => c.once('connect', ok).once('error', fail));
  cleanups.push(() => c.destroy());
  await sleep(20); // the server side accepts in a later turn of the loop
  return c;
}

/** closed ends `c` and resolves once it has closed. */
export const closed = (c: Socket) => new Promise((ok) => c.once('close', ok).end());
