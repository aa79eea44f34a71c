// A free loopback port, for servers a build step or a test starts.
import { createServer } from 'node:net';

/** freePort asks the kernel for a loopback port nobody uses right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}
