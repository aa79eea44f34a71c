// A plain HTTP server on a free loopback port, for a client on the same host only (the kubelet reading
// its static pods). Every path answers with what `respond` gives at that moment.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface LoopbackAnswer {
  readonly status: number;
  readonly body: string;
}

export interface LoopbackServer {
  /** http://127.0.0.1:<port> */
  readonly url: string;
  close(): Promise<void>;
}

/** serveOnLoopback listens on 127.0.0.1:0 and resolves once it does. */
export function serveOnLoopback(respond: () => LoopbackAnswer): Promise<LoopbackServer> {
  const server = createServer((_req, res) => {
    const a = respond();
    res.writeHead(a.status, { 'content-length': Buffer.byteLength(a.body) });
    res.end(a.body);
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      const { port } = server.address() as AddressInfo;
      resolve({
        url: `http://127.0.0.1:${port}`,
        close: () =>
          new Promise<void>((done) => {
            server.closeAllConnections();
            server.close(() => done());
          }),
      });
    });
  });
}
