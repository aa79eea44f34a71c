// The standalone State server: in-memory state with the meta types registered, served over gRPC.
import { rm } from 'node:fs/promises';
import { Server, ServerCredentials } from '@grpc/grpc-js';
import { addStateService } from '../api/server.js';
import { registerDefault } from '../resource/meta/index.js';
import { newInmemState } from '../state/inmem/index.js';
import type { State } from '../state/state.js';
import { wrapCore } from '../state/wrap.js';
import { grpcBindTarget, type ListenAddress } from './listen-address.js';

export interface RuntimeServer {
  /** where it listens; a tcp port of 0 is replaced by the bound port */
  readonly address: ListenAddress;
  readonly state: State;
  /** stop lets calls finish for up to `graceMs`, then cancels the rest (watches never finish on their own). */
  stop(graceMs?: number): Promise<void>;
}

/** Upstream's deployments size histories like this; conformance suites rely on deep tails. */
const HISTORY_MAX_CAPACITY = 1024;

/** startRuntimeServer binds, registers the meta definitions and starts serving (writes allowed). */
export async function startRuntimeServer(listen: ListenAddress): Promise<RuntimeServer> {
  const state = wrapCore(newInmemState({ historyMaxCapacity: HISTORY_MAX_CAPACITY }));
  await registerDefault(state);

  const server = new Server();
  addStateService(server, state);
  // A socket file left by a crashed run would make the bind fail.
  if (listen.kind === 'unix') await rm(listen.path, { force: true });
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync(grpcBindTarget(listen), ServerCredentials.createInsecure(), (err, p) =>
      err ? reject(err) : resolve(p),
    ),
  );
  const address: ListenAddress = listen.kind === 'tcp' ? { ...listen, port } : listen;

  let stopping: Promise<void> | undefined;
  const stop = (graceMs = 2_000) =>
    (stopping ??= (async () => {
      await new Promise<void>((resolve) => {
        const force = setTimeout(() => server.forceShutdown(), graceMs);
        server.tryShutdown(() => {
          clearTimeout(force);
          resolve();
        });
      });
      if (listen.kind === 'unix') await rm(listen.path, { force: true });
    })());
  return { address, state, stop };
}
