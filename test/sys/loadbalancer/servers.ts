// Real TCP servers and clients on loopback for the load balancer's tests: an upstream that names itself,
// then echoes, and a client that reads everything until the close.
import { connect, createServer, type Server, type Socket } from 'node:net';
import { onTestFinished } from 'vitest';

export interface Named {
  readonly port: number;
  close(): Promise<void>;
}

/** named listens on 127.0.0.1 (port 0: a free one); it greets each connection with its name, then echoes */
export async function named(name: string, port = 0): Promise<Named> {
  const conns = new Set<Socket>();
  const server: Server = createServer({ allowHalfOpen: true }, (s) => {
    conns.add(s);
    s.on('close', () => conns.delete(s));
    s.on('error', () => s.destroy());
    s.write(`${name}\n`);
    s.pipe(s);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const close = () =>
    new Promise<void>((resolve) => {
      for (const s of conns) s.destroy();
      if (!server.listening) return resolve();
      server.close(() => resolve());
    });
  onTestFinished(close);
  return { port: (server.address() as { port: number }).port, close };
}

/** exchange connects, sends `send` and half-closes, and resolves with all it read until the close */
export function exchange(port: number, send = ''): Promise<string> {
  return new Promise((resolve, reject) => {
    const s = connect({ host: '127.0.0.1', port, allowHalfOpen: true });
    let got = '';
    s.setEncoding('utf8');
    s.on('data', (d: string) => {
      got += d;
    });
    s.on('connect', () => s.end(send));
    s.on('error', reject);
    s.on('close', () => resolve(got));
  });
}

/** first names the upstream that greeted a connection ('' when none did) */
export const first = async (port: number): Promise<string> => (await exchange(port)).split('\n')[0]!;
