// The build's code-cache training run (scripts/sea.ts): evaluates machined's modules and walks a
// maintenance API through its first answer on loopback, so V8's code cache of the single executable
// carries the bytecode of every function a node runs before its API answers; under TCG, compiling them at
// boot costs seconds. It touches nothing but a loopback port: no files, no mounts, no processes.
import { Client, credentials } from '@grpc/grpc-js';
import { loadApiProto, serviceOf } from '../api/proto.js';
import { startApiServer } from '../api/server.js';
import { newInmemState } from '../cosi/state/inmem/index.js';
import { EventBus } from './events/index.js';

/**
 * train loads what PID 1 loads, the controllers' modules too (PID 1 loads them once its API listens), then
 * serves one Version call in maintenance mode, as talosctl would ask.
 */
export async function train(): Promise<void> {
  await import('./node/pid1.js');
  await (await import('./node/controllers.js')).loadControllers(new EventBus());
  const server = await startApiServer({
    address: '127.0.0.1:0',
    mode: 'maintenance',
    state: newInmemState(),
  });
  try {
    const version = serviceOf(loadApiProto(), 'machine.MachineService').Version!;
    // maintenance mode: TLS without a client certificate, the server's throw-away certificate unchecked
    const creds = credentials.createSsl(null, null, null, {
      rejectUnauthorized: false,
      checkServerIdentity: () => undefined,
    });
    const client = new Client(`127.0.0.1:${server.port}`, creds);
    try {
      await new Promise<void>((resolve, reject) =>
        client.makeUnaryRequest(
          version.path,
          version.requestSerialize,
          version.responseDeserialize,
          {},
          { deadline: Date.now() + 30_000 },
          (err) => (err ? reject(err) : resolve()),
        ),
      );
    } finally {
      client.close();
    }
  } finally {
    await server.close();
  }
}
