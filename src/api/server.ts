// startApiServer: the node's machine API on one TCP port — TLS, roles, node routing, the COSI state
// (read-only) and every Talos service, with UNIMPLEMENTED for RPCs whose subsystem does not exist yet.
import { isIPv4, isIPv6 } from 'node:net';
import { Server } from '@grpc/grpc-js';
import type { ResourceRegistry } from '../cosi/resource/registry.js';
import type { CoreState } from '../cosi/state/core.js';
import type { CertificateAndKey } from '../pki/index.js';
import type { ApiMode } from './auth/authorize.js';
import { clientsFirst, FIRST_CLIENT_HOLD_MS } from './client-first.js';
import { ApiError } from './errors.js';
import { newGate } from './gate.js';
import type { HandlerMap } from './handlers.js';
import { checkHandlers, mountServices } from './mount-services.js';
import { mountState } from './mount-state.js';
import { type ApiProto, loadApiProto } from './proto.js';
import { whenQuiet } from './quiet.js';
import { type Forwarder, nodeForwarder } from './routing/forwarder.js';
import {
  type ApiIdentity,
  mutualTLSCredentials,
  type RotatableCredentials,
  serverOnlyTLSCredentials,
} from './tls/credentials.js';
import {
  type MaintenanceIdentity,
  maintenanceConsoleLines,
  mintMaintenanceIdentity,
} from './tls/maintenance.js';
import { type PlatformInfo, type VersionInfo, versionHandler } from './version.js';
import { warmUp } from './warm-up.js';

/** The largest message either side may send, as upstream's GRPCMaxMessageSize. */
export const MAX_MESSAGE_BYTES = 32 << 20;

/** The default listen address: every interface, apid's port. */
export const DEFAULT_API_ADDRESS = '0.0.0.0:50000';

/** NodeIdentity is a configured node's API PKI, plus its proxy certificate when it may forward. */
export interface NodeIdentity extends ApiIdentity {
  /** O=os:impersonator, EKU clientAuth, signed by the OS CA; without it requests for other nodes are refused */
  readonly client?: CertificateAndKey;
}

export interface StartApiServerOptions {
  /** `host:port`; default `0.0.0.0:50000` */
  readonly address?: string;
  readonly mode: ApiMode;
  /** the node's state; served read-only through cosi.resource.State */
  readonly state: CoreState;
  /** required in normal mode; ignored in maintenance mode */
  readonly identity?: NodeIdentity;
  /** maintenance mode's throw-away PKI; minted when absent */
  readonly maintenance?: MaintenanceIdentity;
  /** addresses the maintenance hint names; default the bound address (useless when it is 0.0.0.0) */
  readonly advertise?: readonly string[];
  /** handlers by full method path; Version is built in unless given here */
  readonly handlers?: HandlerMap;
  /**
   * listen before the node has its handlers (maintenance mode, while the node still starts): Version
   * answers at once, every other call (State's too) waits until `serve` hands them over
   */
  readonly deferHandlers?: boolean;
  /**
   * how long a maintenance API holds the node's other start-up work for its first client (default
   * FIRST_CLIENT_HOLD_MS); 0 when no client can reach it yet (a node whose network is still to come)
   */
  readonly firstClientHoldMs?: number;
  /**
   * the node's names besides the bound address (its IPs, hostname), read at each routed call; a `nodes`
   * entry with one of them (or a loopback address) and no other port is served here
   */
  readonly localNames?: () => Iterable<string>;
  /** told once the API has gone quiet after its clients (src/api/quiet.ts), to give their memory back */
  readonly onQuiet?: () => void;
  /** how long without a connection counts as quiet; default QUIET_MS */
  readonly quietMs?: number;
  readonly version?: VersionInfo;
  readonly platform?: PlatformInfo;
  readonly registry?: ResourceRegistry;
  readonly protoDir?: string;
  readonly signal?: AbortSignal;
}

export interface ApiServer {
  readonly mode: ApiMode;
  /** `host:port` actually bound */
  readonly address: string;
  readonly port: number;
  /** maintenance mode: the server key's SPKI fingerprint and the console hint */
  readonly fingerprint?: string;
  readonly consoleLines?: readonly string[];
  /** serve hands a server started with deferHandlers its handlers, checked as at a start; waiting calls go on */
  serve(handlers: HandlerMap): void;
  /**
   * resolves once a maintenance API's first client is served (its connection closed, one of its calls
   * waits for deferred handlers, or FIRST_CONNECTION_HOLD_MS passed since it came) or nobody came within
   * FIRST_CLIENT_HOLD_MS; at once in normal mode
   */
  readonly firstClient: Promise<void>;
  /** rotate swaps the served certificate (and accepted CA) for new handshakes, without a restart */
  rotate(next: { readonly server: CertificateAndKey; readonly ca?: string }): void;
  /**
   * close stops accepting calls and ends open streams with UNAVAILABLE; calls still running when `signal`
   * aborts are cut. Calling it again returns the same promise.
   */
  close(opts?: { readonly signal?: AbortSignal }): Promise<void>;
}

/**
 * bindTarget names a literal IP address by grpc-js' `ipv4:`/`ipv6:` schemes. Without a scheme grpc-js
 * takes every address for a DNS name and builds its DNS resolver (a c-ares channel) to bind it: about
 * 30 ms of every boot under TCG for machined's `0.0.0.0:50000`, to resolve nothing. Names keep `dns:`.
 */
export function bindTarget(address: string): string {
  const host = address.slice(0, address.lastIndexOf(':'));
  if (isIPv4(host)) return `ipv4:${address}`;
  if (host.startsWith('[') && host.endsWith(']') && isIPv6(host.slice(1, -1))) return `ipv6:${address}`;
  return address;
}

const VERSION_METHOD = '/machine.MachineService/Version';

/** HandOver is where a server's handlers come from: given at its start, or handed over later. */
interface HandOver {
  /** the handlers for a call of `method`; while they are still to come, a promise (and `waiting` is told) */
  handlersFor(method: string, waiting: () => void): HandlerMap | Promise<HandlerMap>;
  /** undefined once served; else the promise a State call waits on (and `waiting` is told) */
  ready(waiting: () => void): Promise<void> | undefined;
  serve(handlers: HandlerMap): void;
  /** fails the calls still waiting, and every later one (the server closes) */
  refuse(reason: Error): void;
}

/**
 * handOver checks the handlers given at the start; without them (deferHandlers) only the built-in
 * Version answers until serve() is called. Either way a handler map is checked before it is served.
 */
function handOver(
  services: ApiProto['services'],
  builtIn: HandlerMap,
  atStart: HandlerMap | undefined,
): HandOver {
  const merge = (handlers: HandlerMap): HandlerMap => {
    const all = { ...builtIn, ...handlers };
    checkHandlers(services, all);
    return all;
  };
  let served = atStart ? merge(atStart) : undefined;
  let resolveHandOver = () => {};
  let rejectHandOver: (reason: Error) => void = () => {};
  const handedOver = new Promise<void>((resolve, reject) => {
    resolveHandOver = resolve;
    rejectHandOver = reject;
  });
  handedOver.catch(() => {}); // only waiting calls care; they get the reason
  return {
    handlersFor(method, waiting) {
      if (served) return served;
      if (method === VERSION_METHOD) return builtIn;
      waiting();
      return handedOver.then(() => served!);
    },
    ready(waiting) {
      if (served) return undefined;
      waiting();
      return handedOver;
    },
    serve(handlers) {
      if (served) throw new ApiError('internal', 'api: handlers were already served');
      served = merge(handlers);
      resolveHandOver();
    },
    refuse(reason) {
      rejectHandOver(reason);
    },
  };
}

/** credentialsFor picks mutual TLS (normal) or server-only TLS with a throw-away root (maintenance). */
async function credentialsFor(opts: StartApiServerOptions): Promise<{
  tls: RotatableCredentials;
  maintenance?: MaintenanceIdentity;
  forwarder?: Forwarder;
}> {
  if (opts.mode === 'maintenance') {
    if (opts.maintenance)
      return { tls: serverOnlyTLSCredentials(opts.maintenance.server), maintenance: opts.maintenance };
    const maintenance = await mintMaintenanceIdentity(opts.signal ? { signal: opts.signal } : {});
    return { tls: serverOnlyTLSCredentials(maintenance.server, { minted: true }), maintenance };
  }
  const id = opts.identity;
  if (!id)
    throw new ApiError('invalid-argument', 'startApiServer: normal mode needs identity (OS CA and API cert)');
  const tls = mutualTLSCredentials(id);
  if (!id.client) return { tls };
  return {
    tls,
    forwarder: nodeForwarder({ ca: id.ca, client: id.client, maxMessageBytes: MAX_MESSAGE_BYTES }),
  };
}

/** startApiServer binds, mounts every service and resolves once the port is listening. */
export async function startApiServer(opts: StartApiServerOptions): Promise<ApiServer> {
  const { mode } = opts;
  // a maintenance identity's keys are made on the thread pool: under TCG the first (OpenSSL's start with
  // it) takes ≈ 0.15 s, which now passes while this thread loads the protos
  const credentials = credentialsFor(opts);
  const builtIn: HandlerMap = {
    [VERSION_METHOD]: versionHandler({
      rbac: mode === 'normal',
      ...(opts.version ? { version: opts.version } : {}),
      ...(opts.platform ? { platform: opts.platform } : {}),
    }),
  };
  let proto: ApiProto;
  let handed: HandOver;
  try {
    proto = loadApiProto(opts.protoDir ? { protoDir: opts.protoDir } : {});
    handed = handOver(proto.services, builtIn, opts.deferHandlers ? undefined : (opts.handlers ?? {}));
  } catch (e) {
    void credentials.then(
      (c) => c.forwarder?.close(),
      () => {},
    );
    throw e;
  }
  const { tls, maintenance, forwarder } = await credentials;
  const closing = new AbortController();
  const localNames = opts.localNames ?? (() => []);
  const bindAddress = opts.address ?? DEFAULT_API_ADDRESS;
  let self = bindAddress;
  const gate = newGate({ mode, localNames, self: () => self, ...(forwarder ? { forwarder } : {}) });

  const server = new Server({
    'grpc.max_receive_message_length': MAX_MESSAGE_BYTES,
    'grpc.max_send_message_length': MAX_MESSAGE_BYTES,
    // grpc-js keeps channelz statistics and traces for every socket and call unless told not to; nothing
    // serves channelz here, so they would only cost time on each connection and call
    'grpc.enable_channelz': 0,
  });
  // a maintenance client that waits for the node's handlers has been served all it can be before them
  let firstClientGone = () => {};
  const firstClient = new Promise<void>((resolve) => {
    firstClientGone = resolve;
  });
  mountServices(server, {
    services: proto.services,
    handlersFor: (method) => handed.handlersFor(method, firstClientGone),
    gate,
    closing: closing.signal,
  });
  mountState(server, {
    state: opts.state,
    methods: proto.services.get('cosi.resource.State')!,
    gate,
    closing: closing.signal,
    ready: () => handed.ready(firstClientGone),
    // its modules are not needed for the first client, and are loaded after it (at once in normal mode)
    loadAfter: firstClient,
    ...(opts.registry ? { registry: opts.registry } : {}),
  });

  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync(bindTarget(bindAddress), tls.credentials, (err, p) => (err ? reject(err) : resolve(p))),
  ).catch((cause: unknown) => {
    forwarder?.close();
    server.forceShutdown();
    const why = cause instanceof Error ? cause.message : String(cause);
    throw new ApiError('unavailable', `api: cannot listen on ${bindAddress}: ${why}`, { cause });
  });
  const address = `${bindAddress.slice(0, bindAddress.lastIndexOf(':'))}:${port}`;
  self = address;
  const stopClientsFirst = clientsFirst(
    port,
    mode === 'maintenance'
      ? { firstClientMs: opts.firstClientHoldMs ?? FIRST_CLIENT_HOLD_MS, onFirstClientGone: firstClientGone }
      : {},
  );
  if (mode !== 'maintenance' || opts.firstClientHoldMs === 0) firstClientGone();
  const stopQuiet = opts.onQuiet
    ? whenQuiet(port, { onQuiet: opts.onQuiet, ...(opts.quietMs ? { quietMs: opts.quietMs } : {}) })
    : () => {};
  // Version's first answer builds its types and codecs: build them while the first client is on its way
  // (after the caller has said the API listens, which happens before this turn ends)
  const versionDef = proto.services.get('machine.MachineService')?.Version;
  if (mode === 'maintenance' && versionDef)
    setImmediate(() => void warmUp(versionDef, VERSION_METHOD, builtIn[VERSION_METHOD]!));

  let closed: Promise<void> | undefined;
  const shutDown = (signal: AbortSignal | undefined) =>
    new Promise<void>((resolve) => {
      // Open streams (watches, follows) never end by themselves: end them so the drain can finish.
      // Unary calls in flight (a Shutdown's own reply, possibly forwarded) finish during the drain,
      // so the forwarder closes only after it.
      closing.abort(new ApiError('unavailable', 'api server shutting down'));
      handed.refuse(new ApiError('unavailable', 'api server shutting down'));
      stopClientsFirst();
      stopQuiet();
      const finish = () => {
        forwarder?.close();
        resolve();
      };
      const force = () => {
        server.forceShutdown();
        finish();
      };
      if (signal?.aborted) return force();
      signal?.addEventListener('abort', force, { once: true });
      server.tryShutdown(() => {
        signal?.removeEventListener('abort', force);
        finish();
      });
    });

  return {
    mode,
    address,
    port,
    ...(maintenance
      ? {
          fingerprint: maintenance.fingerprint,
          consoleLines: maintenanceConsoleLines(
            opts.advertise?.length ? opts.advertise : [address],
            maintenance.fingerprint,
          ),
        }
      : {}),
    serve: (handlers) => handed.serve(handlers),
    firstClient,
    rotate: (next) => tls.rotate(next),
    close(closeOpts = {}) {
      closed ??= shutDown(closeOpts.signal);
      return closed;
    },
  };
}
