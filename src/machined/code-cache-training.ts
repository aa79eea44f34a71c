// The build's code-cache training run (scripts/sea.ts): evaluates machined's modules and walks a
// maintenance API through its first answer on loopback, so V8's code cache of the single executable
// carries the bytecode of every function a node runs before its API answers; under TCG, compiling them at
// boot costs seconds. It touches nothing but a loopback port: no files, no mounts, no processes.
import { connect, type IncomingHttpHeaders } from 'node:http2';
import { startApiServer } from '../api/server.js';
import { newInmemState } from '../cosi/state/inmem/index.js';
import { EventBus } from './events/index.js';

const ANSWER_TIMEOUT_MS = 30_000;
const VERSION_PATH = '/machine.MachineService/Version';

/**
 * train loads what PID 1 loads, the rest of the node and the controllers' modules too (PID 1 loads them
 * once its API has served its first client), then serves one Version call in maintenance mode, as
 * talosctl would ask.
 */
export async function train(): Promise<void> {
  await import('./node/pid1.js');
  await import('./node/run-node.js');
  // a node's network controllers too (made, not run)
  await (await import('./node/controllers.js')).loadControllers(new EventBus(), { network: { cmdline: '' } });
  const server = await startApiServer({
    address: '127.0.0.1:0',
    mode: 'maintenance',
    state: newInmemState(),
    // as a node listens: before it has handlers
    deferHandlers: true,
  });
  try {
    await askVersion(server.port);
  } finally {
    await server.close();
  }
}

/**
 * askVersion makes the Version call over Node's own HTTP/2 client, not grpc-js': the cache holds only this
 * script's functions, and a node never runs grpc-js' client side before it answers, so its ~400
 * functions (about an eighth of the cache) were deserialized at every boot for nothing.
 */
export async function askVersion(port: number, path = VERSION_PATH): Promise<void> {
  // maintenance mode: TLS without a client certificate, the server's throw-away certificate unchecked
  const session = connect(`https://127.0.0.1:${port}`, { rejectUnauthorized: false });
  try {
    await new Promise<void>((resolve, reject) => {
      session.once('error', reject);
      const call = session.request({
        ':method': 'POST',
        ':path': path,
        'content-type': 'application/grpc',
        te: 'trailers',
      });
      call.setTimeout(ANSWER_TIMEOUT_MS, () =>
        call.destroy(new Error(`${path}: no answer within ${ANSWER_TIMEOUT_MS / 1000} s`)),
      );
      call.once('error', reject);
      // the status comes in the trailers, or in the headers of a reply that has nothing else (an error)
      const settle = (fields: IncomingHttpHeaders) => {
        const status = fields['grpc-status'];
        if (status === undefined) return;
        if (status === '0') resolve();
        else
          reject(new Error(`${path}: grpc-status ${String(status)} ${String(fields['grpc-message'] ?? '')}`));
      };
      call.once('response', settle);
      call.once('trailers', settle);
      call.once('close', () => reject(new Error(`${path}: the call ended without a gRPC status`)));
      call.resume(); // the reply's message is not needed, only that the call completed
      // an empty VersionRequest: a gRPC frame of an uncompressed, zero-length message
      call.end(Buffer.alloc(5));
    });
  } finally {
    session.close();
  }
}
