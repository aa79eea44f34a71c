// Test harness: real State servers on loopback or unix sockets, and clients for them; everything stops on close.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type ChannelCredentials,
  credentials,
  Server,
  ServerCredentials,
  type ServiceDefinition,
  type UntypedServiceImplementation,
} from '@grpc/grpc-js';
import {
  type GrpcCoreState,
  type GrpcCoreStateOptions,
  grpcCoreState,
} from '../../../src/cosi/api/client.js';
import { addStateService, type StateServiceOptions } from '../../../src/cosi/api/server.js';
import type { CoreState } from '../../../src/cosi/state/core.js';
import { newInmemState } from '../../../src/cosi/state/inmem/index.js';

export interface Served {
  readonly server: Server;
  /** the client-side target: `127.0.0.1:port` or `unix:///…` */
  readonly target: string;
  /** stop cancels every call (watches included) and unbinds */
  stop(): void;
}

export interface ServeOptions extends StateServiceOptions {
  /** bind here instead of an ephemeral loopback port: `unix:///…` or `host:port` */
  bind?: string;
  credentials?: ServerCredentials;
  /** drop these methods, as a server from before they existed would */
  without?: readonly string[];
}

/** serve starts a State server for `core`. */
export async function serve(core: CoreState, opts: ServeOptions = {}): Promise<Served> {
  const server = new Server();
  const { without = [], bind, credentials: creds, ...serviceOpts } = opts;
  // A stand-in that removes handlers before they reach the real server, so grpc-js answers UNIMPLEMENTED.
  const filtering = {
    addService(def: ServiceDefinition, impl: UntypedServiceImplementation) {
      const kept = Object.fromEntries(Object.entries(impl).filter(([name]) => !without.includes(name)));
      server.addService(def, kept);
    },
  } as unknown as Server;
  addStateService(without.length > 0 ? filtering : server, core, serviceOpts);
  const address = bind ?? '127.0.0.1:0';
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync(address, creds ?? ServerCredentials.createInsecure(), (err, p) =>
      err ? reject(err) : resolve(p),
    ),
  );
  const target = address.startsWith('unix:') ? address : `127.0.0.1:${port}`;
  return { server, target, stop: () => server.forceShutdown() };
}

export interface Pair {
  readonly core: CoreState;
  readonly served: Served;
  readonly remote: GrpcCoreState;
  close(): void;
}

export interface PairOptions extends ServeOptions {
  core?: CoreState;
  client?: GrpcCoreStateOptions;
  channelCredentials?: ChannelCredentials;
  /** the name the client expects on the server certificate */
  serverName?: string;
}

/** pair serves a (fresh in-memory, unless given) state and connects a grpcCoreState to it. */
export async function pair(opts: PairOptions = {}): Promise<Pair> {
  const { core = newInmemState(), client, channelCredentials, serverName, ...serveOpts } = opts;
  const served = await serve(core, serveOpts);
  const remote = grpcCoreState(served.target, channelCredentials ?? credentials.createInsecure(), {
    ...client,
    ...(serverName ? { channelOptions: { 'grpc.ssl_target_name_override': serverName } } : {}),
  });
  return {
    core,
    served,
    remote,
    close: () => {
      remote.close();
      served.stop();
    },
  };
}

/** tempDir makes a private directory removed by the returned cleanup. */
export async function tempDir(): Promise<{ dir: string; remove: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'cosi-api-'));
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) };
}

/** delegate copies a CoreState's verbs into a plain object, so tests can override single ones. */
export const delegate = (inner: CoreState): CoreState => ({
  get: (p, o) => inner.get(p, o),
  list: (k, o) => inner.list(k, o),
  create: (r, o) => inner.create(r, o),
  update: (r, o) => inner.update(r, o),
  destroy: (p, o) => inner.destroy(p, o),
  watch: (p, o) => inner.watch(p, o),
  watchKind: (k, o) => inner.watchKind(k, o),
  watchKindAggregated: (k, o) => inner.watchKindAggregated(k, o),
});
