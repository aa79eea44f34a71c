// A connection to one API endpoint: unary and server-stream calls by service and method name, routed to
// nodes through gRPC metadata (`nodes` for one-to-many, `node` for one), and COSI state clients per node.
import {
  type ChannelCredentials,
  Client,
  type ClientReadableStream,
  InterceptingCall,
  type Interceptor,
  Metadata,
  type MethodDefinition,
  type ServiceError,
} from '@grpc/grpc-js';
import { loadApiProto } from '../../api/proto.js';
import { type GrpcCoreState, grpcCoreState } from '../../cosi/api/index.js';
import { defaultRegistry } from '../../cosi/resource/registry.js';
import { serverNameOptions } from '../../pki/server-name.js';
import { ClientError, isCancelled } from './errors.js';
import { type Auth, transportText } from './transport.js';

/** The largest reply accepted, as talosctl's client sets it. */
const MAX_MESSAGE_BYTES = 32 << 20;

/** Route says which node(s) serve a call: several (envelope replies), one (passed through), or the endpoint. */
export type Route =
  | { readonly kind: 'nodes'; readonly nodes: readonly string[] }
  | { readonly kind: 'node'; readonly node: string }
  | { readonly kind: 'direct' };

export interface CallOptions {
  readonly route: Route;
  readonly signal?: AbortSignal;
}

export interface Connection {
  /** `host:port` dialled */
  readonly address: string;
  readonly auth: Auth;
  unary<Res>(service: string, method: string, request: object, opts: CallOptions): Promise<Res>;
  /** stream yields each reply; it ends quietly when `signal` aborts */
  stream<Res>(service: string, method: string, request: object, opts: CallOptions): AsyncIterable<Res>;
  /** state is a COSI State client whose calls carry the route's metadata */
  state(route: Route): GrpcCoreState;
  close(): void;
}

const routeMetadata = (route: Route): [string, string][] => {
  if (route.kind === 'nodes') return route.nodes.map((n) => ['nodes', n]);
  if (route.kind === 'node') return [['node', route.node]];
  return [];
};

const metadataFor = (route: Route): Metadata => {
  const md = new Metadata();
  for (const [k, v] of routeMetadata(route)) md.add(k, v);
  return md;
};

/** routeInterceptor stamps every call of a client with the route, for clients we do not drive ourselves. */
const routeInterceptor =
  (route: Route): Interceptor =>
  (options, nextCall) =>
    new InterceptingCall(nextCall(options), {
      start(metadata, listener, next) {
        for (const [k, v] of routeMetadata(route)) metadata.add(k, v);
        next(metadata, listener);
      },
    });

/** plainStatus rewords a failure to connect on every call, so each command's error reads alike. */
const plainStatus =
  (auth: Auth): Interceptor =>
  (options, nextCall) =>
    new InterceptingCall(nextCall(options), {
      start(metadata, _listener, next) {
        next(metadata, {
          onReceiveStatus(status, nextStatus) {
            nextStatus({ ...status, details: transportText(status.details, auth) });
          },
        });
      },
    });

const channelOptions = { 'grpc.max_receive_message_length': MAX_MESSAGE_BYTES };

/** connect opens a lazy channel to `address`; nothing is dialled until the first call. */
export function connect(address: string, creds: ChannelCredentials, auth: Auth): Connection {
  const services = loadApiProto().services;
  // a node dialled by IP gets a server name without it (DEP0123); its certificate is checked against the IP
  const named = { ...channelOptions, ...serverNameOptions(address) };
  const client = new Client(address, creds, { ...named, interceptors: [plainStatus(auth)] });
  const states: GrpcCoreState[] = [];
  const stateClients: Client[] = [];

  const methodOf = (service: string, method: string): MethodDefinition<object, object> => {
    const def = services.get(service as never)?.[method];
    if (!def) throw new ClientError('rpc', `unknown method ${service}/${method}`);
    return def;
  };

  return {
    address,
    auth,
    unary<Res>(service: string, method: string, request: object, opts: CallOptions): Promise<Res> {
      const def = methodOf(service, method);
      return new Promise<Res>((resolve, reject) => {
        const call = client.makeUnaryRequest(
          def.path,
          def.requestSerialize,
          def.responseDeserialize,
          request,
          metadataFor(opts.route),
          (err: ServiceError | null, reply?: object) => {
            opts.signal?.removeEventListener('abort', cancel);
            if (err) reject(err);
            else resolve(reply as Res);
          },
        );
        const cancel = () => call.cancel();
        if (opts.signal?.aborted) cancel();
        else opts.signal?.addEventListener('abort', cancel, { once: true });
      });
    },

    async *stream<Res>(service: string, method: string, request: object, opts: CallOptions) {
      const def = methodOf(service, method);
      const call: ClientReadableStream<object> = client.makeServerStreamRequest(
        def.path,
        def.requestSerialize,
        def.responseDeserialize,
        request,
        metadataFor(opts.route),
      );
      const cancel = () => call.cancel();
      if (opts.signal?.aborted) cancel();
      else opts.signal?.addEventListener('abort', cancel, { once: true });
      try {
        for await (const m of call) yield m as Res;
      } catch (e) {
        if (opts.signal?.aborted && isCancelled(e)) return; // Ctrl-C: a clean end, not a failure
        throw e;
      } finally {
        opts.signal?.removeEventListener('abort', cancel);
        call.cancel(); // leaving the loop early must not leave the stream open
      }
    },

    state(route: Route): GrpcCoreState {
      const c = new Client(address, creds, {
        ...named,
        interceptors: [routeInterceptor(route), plainStatus(auth)],
      });
      stateClients.push(c);
      const s = grpcCoreState(c, { registry: defaultRegistry, watchRetry: false });
      states.push(s);
      return s;
    },

    close() {
      for (const s of states.splice(0)) s.close();
      for (const c of stateClients.splice(0)) c.close();
      client.close();
    },
  };
}
