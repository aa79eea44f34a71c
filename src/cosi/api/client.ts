// grpcCoreState: a CoreState whose verbs are cosi.resource.State calls to a remote server.
import { setMaxListeners } from 'node:events';
import { type ChannelCredentials, type ChannelOptions, Client, type MethodDefinition } from '@grpc/grpc-js';
import type { Kind, Pointer } from '../resource/kind.js';
import { fromProtoResource, type ProtoResource, toProtoResource } from '../resource/protobuf/resource.js';
import type { ResourceRegistry } from '../resource/registry.js';
import type { Resource } from '../resource/resource.js';
import type {
  CoreState,
  TeardownOptions,
  UnmarshalOptions,
  WatchKindOptions,
  WatchOptions,
} from '../state/core.js';
import type { State } from '../state/state.js';
import { wrapCore } from '../state/wrap.js';
import type { BackoffOptions } from './backoff.js';
import { type CallContext, collectStream, unaryCall } from './client-calls.js';
import { flatten, openRemoteWatch, type WatchRetryInfo } from './client-watch.js';
import { type LoadProtoOptions, loadCosiProto, type StateServiceDefinition } from './proto.js';
import { idQueryToWire, labelQueryToWire } from './queries.js';
import { fromStatusError, isMissingMethod, isServiceError, type StateMethod } from './status.js';
import type { WatchRequest, WatchOptions as WireWatchOptions } from './wire.js';

export interface GrpcCoreStateOptions extends LoadProtoOptions {
  /** decodes received resources into registered types; unknown types stay opaque */
  registry?: ResourceRegistry;
  /** reconnect policy for broken watch streams; false disables reconnects */
  watchRetry?: false | BackoffOptions;
  /** told about every watch reconnect, e.g. to log it */
  onWatchRetry?: (info: WatchRetryInfo) => void;
  /** channel options, when this state opens the channel itself */
  channelOptions?: ChannelOptions;
}

/** GrpcCoreState is a remote CoreState; it implements the teardown verbs natively. */
export interface GrpcCoreState extends CoreState {
  teardown(ptr: Pointer, opts?: TeardownOptions): Promise<boolean>;
  teardownAndDestroy(ptr: Pointer, opts?: TeardownOptions): Promise<void>;
  /** close cancels every call in flight, watches included, and closes the channel if this state opened it. */
  close(): void;
}

/** grpcCoreState talks to `client`'s channel (shared; close() leaves it open). */
export function grpcCoreState(client: Client, opts?: GrpcCoreStateOptions): GrpcCoreState;
/** grpcCoreState opens its own channel to `address` (`host:port`, `unix:///path`, …). */
export function grpcCoreState(
  address: string,
  credentials: ChannelCredentials,
  opts?: GrpcCoreStateOptions,
): GrpcCoreState;
export function grpcCoreState(
  target: Client | string,
  credsOrOpts?: ChannelCredentials | GrpcCoreStateOptions,
  maybeOpts?: GrpcCoreStateOptions,
): GrpcCoreState {
  const owned = typeof target === 'string';
  const opts = (owned ? maybeOpts : (credsOrOpts as GrpcCoreStateOptions | undefined)) ?? {};
  const client = owned
    ? new Client(target, credsOrOpts as ChannelCredentials, opts.channelOptions)
    : (target as Client);
  const { stateService } = loadCosiProto(opts);
  const closer = new AbortController();
  // every call in flight listens on it until it settles: as many listeners as concurrent calls, not a leak
  setMaxListeners(0, closer.signal);
  const ctx: CallContext = { client, closed: closer.signal };
  return remoteState(ctx, stateService, opts, () => {
    closer.abort(new Error('grpc state closed'));
    if (owned) client.close();
  });
}

const kindOf = (k: Kind): Pointer => ({ namespace: k.namespace, type: k.type, id: '' });

function remoteState(
  ctx: CallContext,
  svc: StateServiceDefinition,
  opts: GrpcCoreStateOptions,
  close: () => void,
): GrpcCoreState {
  const registry = opts.registry ? { registry: opts.registry } : {};
  const decoder =
    (o: UnmarshalOptions | undefined) =>
    (r: ProtoResource): Resource =>
      fromProtoResource(r, { ...registry, skipProtobufUnmarshal: o?.skipProtobufUnmarshal === true });

  // Every failure leaves here classified: a StateError where the status allows, else a RemoteCallError.
  const mapError = (err: unknown, method: StateMethod, ref: Pointer): unknown =>
    isServiceError(err) ? fromStatusError(err, method, ref) : err;

  const call = async <Req, Res>(
    method: StateMethod,
    req: Req,
    ref: Pointer,
    signal: AbortSignal | undefined,
  ): Promise<Res> => {
    try {
      return await unaryCall(ctx, svc[method] as unknown as MethodDefinition<Req, Res>, req, signal);
    } catch (err) {
      throw mapError(err, method, ref);
    }
  };

  const requireResource = (r: ProtoResource | undefined, method: StateMethod): ProtoResource => {
    if (!r) throw new Error(`cosi.resource.State/${method}: the response carries no resource`);
    return r;
  };

  // The state assigns version, owner and timestamps; the caller's object must reflect them.
  const copyBack = (from: ProtoResource | undefined, into: Resource) => {
    if (!from?.metadata) return; // servers older than these responses return nothing to copy
    const md = fromProtoResource(from, { ...registry, skipProtobufUnmarshal: true }).metadata;
    into.metadata.version = md.version;
    into.metadata.owner = md.owner;
    into.metadata.created = md.created;
    into.metadata.updated = md.updated;
  };

  const watchRequest = (kind: Kind, options: WireWatchOptions, id?: string): WatchRequest => ({
    namespace: kind.namespace,
    type: kind.type,
    ...(id !== undefined ? { id } : {}),
    options,
    api_version: 1,
  });

  const commonWatchOptions = (o: WatchOptions): WireWatchOptions => ({
    ...(o.tailEvents ? { tail_events: o.tailEvents } : {}),
    ...(o.startFromBookmark ? { start_from_bookmark: o.startFromBookmark } : {}),
  });

  const kindWatchOptions = (o: WatchKindOptions, aggregated: boolean): WireWatchOptions => {
    const idQuery = idQueryToWire(o.idQuery);
    return {
      ...commonWatchOptions(o),
      ...(o.bootstrapContents ? { bootstrap_contents: true } : {}),
      ...(o.bootstrapBookmark ? { bootstrap_bookmark: true } : {}),
      ...(o.labelQueries?.length ? { label_query: o.labelQueries.map(labelQueryToWire) } : {}),
      ...(idQuery ? { id_query: idQuery } : {}),
      ...(aggregated ? { aggregated: true } : {}),
    };
  };

  const openWatch = (request: WatchRequest, ref: Pointer, o: WatchOptions) =>
    openRemoteWatch({
      ctx,
      method: svc.Watch,
      request,
      ...(o.signal ? { signal: o.signal } : {}),
      decode: decoder(o),
      ref,
      retry: opts.watchRetry ?? {},
      ...(opts.onWatchRetry ? { onRetry: opts.onWatchRetry } : {}),
    });

  const core: CoreState = {
    async get(ptr, o) {
      const res = await call<object, { resource?: ProtoResource }>(
        'Get',
        { namespace: ptr.namespace, type: ptr.type, id: ptr.id, options: {} },
        ptr,
        o?.signal,
      );
      return decoder(o)(requireResource(res.resource, 'Get'));
    },

    async list(kind, o) {
      const idQuery = idQueryToWire(o?.idQuery);
      const req = {
        namespace: kind.namespace,
        type: kind.type,
        options: {
          ...(o?.labelQueries?.length ? { label_query: o.labelQueries.map(labelQueryToWire) } : {}),
          ...(idQuery ? { id_query: idQuery } : {}),
        },
      };
      let items: { resource?: ProtoResource }[];
      try {
        items = await collectStream(ctx, svc.List, req, o?.signal);
      } catch (err) {
        throw mapError(err, 'List', kindOf(kind));
      }
      const decode = decoder(o);
      return items.map((m) => decode(requireResource(m.resource, 'List')));
    },

    async create(r, o) {
      const res = await call<object, { resource?: ProtoResource }>(
        'Create',
        { resource: toProtoResource(r), options: { owner: o?.owner ?? '' } },
        r.metadata,
        o?.signal,
      );
      copyBack(res.resource, r);
    },

    async update(r, o) {
      // Like upstream's client: the default is "must be running"; 'any' is expressed by absence.
      const phase = o?.expectedPhase ?? 'running';
      const res = await call<object, { resource?: ProtoResource }>(
        'Update',
        {
          new_resource: toProtoResource(r),
          options: { owner: o?.owner ?? '', ...(phase === 'any' ? {} : { expected_phase: phase }) },
        },
        r.metadata,
        o?.signal,
      );
      copyBack(res.resource, r);
    },

    async destroy(ptr, o) {
      await call(
        'Destroy',
        { namespace: ptr.namespace, type: ptr.type, id: ptr.id, options: { owner: o?.owner ?? '' } },
        ptr,
        o?.signal,
      );
    },

    async watch(ptr, o = {}) {
      const req = watchRequest(ptr, commonWatchOptions(o), ptr.id);
      return flatten(await openWatch(req, ptr, o));
    },

    async watchKind(kind, o = {}) {
      return flatten(await openWatch(watchRequest(kind, kindWatchOptions(o, false)), kindOf(kind), o));
    },

    async watchKindAggregated(kind, o = {}) {
      return openWatch(watchRequest(kind, kindWatchOptions(o, true)), kindOf(kind), o);
    },
  };

  // Servers that predate the teardown RPCs answer UNIMPLEMENTED; then derive them from the basic
  // verbs, as a local state would, and remember not to ask again.
  let emulated: State | undefined;
  const derived = () => (emulated ??= wrapCore(core));
  const missing = { Teardown: false, TeardownAndDestroy: false };
  const native = async <T>(
    method: 'Teardown' | 'TeardownAndDestroy',
    ptr: Pointer,
    o: TeardownOptions | undefined,
    fallback: () => Promise<T>,
    pick: (res: { destroy_ready?: boolean }) => T,
  ): Promise<T> => {
    if (!missing[method]) {
      try {
        const res = await call<object, { destroy_ready?: boolean }>(
          method,
          { namespace: ptr.namespace, type: ptr.type, id: ptr.id, options: { owner: o?.owner ?? '' } },
          ptr,
          o?.signal,
        );
        return pick(res);
      } catch (err) {
        if (!isMissingMethod(err)) throw err;
        missing[method] = true;
      }
    }
    return fallback();
  };

  return {
    ...core,
    teardown: (ptr, o) =>
      native(
        'Teardown',
        ptr,
        o,
        () => derived().teardown(ptr, o),
        (res) => res.destroy_ready === true,
      ),
    teardownAndDestroy: (ptr, o) =>
      native(
        'TeardownAndDestroy',
        ptr,
        o,
        () => derived().teardownAndDestroy(ptr, o),
        () => undefined,
      ),
    close,
  };
}
