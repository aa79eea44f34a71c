// addStateService: serves any CoreState as cosi.resource.State, wire-compatible with upstream clients.
import {
  type Server,
  type ServiceDefinition,
  status,
  type UntypedServiceImplementation,
} from '@grpc/grpc-js';
import type { Kind, Pointer } from '../resource/kind.js';
import { parsePhase } from '../resource/phase.js';
import { fromProtoResource, type ProtoResource, toProtoResource } from '../resource/protobuf/resource.js';
import type { ResourceRegistry } from '../resource/registry.js';
import type { Resource } from '../resource/resource.js';
import type { CoreState, UpdateOptions } from '../state/core.js';
import { type FilterRule, readOnlyRule, type Verb } from '../state/filter.js';
import { wrapCore } from '../state/wrap.js';
import { RequestError } from './errors.js';
import { loadCosiProto } from './proto.js';
import { idQueryFromWire, labelQueriesFromWire } from './queries.js';
import { serverStream, unary } from './server-calls.js';
import { type AccessCheck, serveWatch } from './server-watch.js';
import { type StateMethod, toStatusError } from './status.js';
import type {
  CreateRequest,
  ListRequest,
  ListResponse,
  PointerRequest,
  UpdateRequest,
  WatchRequest,
  WatchResponse,
} from './wire.js';

export interface StateServiceOptions {
  /** decodes incoming resources into registered types; unknown types are stored opaque */
  registry?: ResourceRegistry;
  /** deny every verb that changes data (PERMISSION_DENIED), as an appliance's external API does */
  readOnly?: boolean;
  /** runs before every verb; throwing denies the call with PERMISSION_DENIED */
  rule?: FilterRule;
  /** where the .proto files live, when not beside this module */
  protoDir?: string;
}

/** AccessDenied marks an error thrown by an access rule, so it maps to PERMISSION_DENIED whatever it is. */
class AccessDenied extends Error {
  constructor(readonly reason: unknown) {
    super(reason instanceof Error ? reason.message : String(reason), { cause: reason });
  }
}

const pointerOf = (req: PointerRequest): Pointer => ({
  namespace: req.namespace ?? '',
  type: req.type ?? '',
  id: req.id ?? '',
});

/**
 * addStateService registers cosi.resource.State on `server`, backed by `core`.
 *
 * Every request field is optional on the wire, so handlers treat absent sub-messages as their
 * defaults and reject absent resources with INVALID_ARGUMENT; nothing a peer sends can make a
 * handler throw outside its call. Errors map to upstream's status codes, and a trailer keeps the
 * exact class for clients that read it.
 */
export function addStateService(server: Server, core: CoreState, opts: StateServiceOptions = {}): void {
  const { stateService } = loadCosiProto(opts.protoDir ? { protoDir: opts.protoDir } : {});
  const rules = [...(opts.readOnly ? [readOnlyRule] : []), ...(opts.rule ? [opts.rule] : [])];
  // Teardowns are derived from the core's verbs unless it has its own (as a remote state does).
  const derived = wrapCore(core);

  const allow = async (
    target: Kind & { readonly id?: string },
    verbs: readonly Verb[],
    signal: AbortSignal,
  ) => {
    for (const rule of rules)
      for (const verb of verbs) {
        try {
          await rule(
            { namespace: target.namespace, type: target.type, id: target.id ?? '', verb },
            { signal },
          );
        } catch (reason) {
          throw new AccessDenied(reason);
        }
      }
  };
  const watchCheck: AccessCheck = (target, signal) => allow(target, ['watch'], signal);

  const toStatus = (method: StateMethod) => (err: unknown) =>
    err instanceof AccessDenied
      ? toStatusError(err.reason, method, { denied: true })
      : toStatusError(err, method);

  const decode = (msg: ProtoResource | undefined, field: string): Resource => {
    if (!msg) throw new RequestError(status.INVALID_ARGUMENT, `${field} is missing`);
    if (!msg.metadata) throw new RequestError(status.INVALID_ARGUMENT, `${field}.metadata is missing`);
    if (!msg.spec) throw new RequestError(status.INVALID_ARGUMENT, `${field}.spec is missing`);
    try {
      return fromProtoResource(msg, opts.registry ? { registry: opts.registry } : {});
    } catch (cause) {
      const why = cause instanceof Error ? cause.message : String(cause);
      throw new RequestError(status.INVALID_ARGUMENT, `invalid ${field}: ${why}`, { cause });
    }
  };

  const handlers = {
    Get: unary(async (req: PointerRequest, signal) => {
      const ptr = pointerOf(req);
      await allow(ptr, ['get'], signal);
      return { resource: toProtoResource(await core.get(ptr, { signal })) };
    }, toStatus('Get')),

    List: serverStream<ListRequest, ListResponse>(async (req, send, signal) => {
      const kind: Kind = { namespace: req.namespace ?? '', type: req.type ?? '' };
      const labelQueries = labelQueriesFromWire(req.options?.label_query);
      const idQuery = idQueryFromWire(req.options?.id_query);
      await allow(kind, ['list'], signal);
      const items = await core.list(kind, {
        signal,
        ...(labelQueries.length > 0 ? { labelQueries } : {}),
        ...(idQuery ? { idQuery } : {}),
      });
      for (const r of items) {
        if (signal.aborted) return;
        await send({ resource: toProtoResource(r) });
      }
    }, toStatus('List')),

    Create: unary(async (req: CreateRequest, signal) => {
      const r = decode(req.resource, 'resource');
      await allow(r.metadata, ['create'], signal);
      await core.create(r, { owner: req.options?.owner ?? '', signal });
      // The state wrote the assigned version and timestamps back into r.
      return { resource: toProtoResource(r) };
    }, toStatus('Create')),

    Update: unary(async (req: UpdateRequest, signal) => {
      const r = decode(req.new_resource, 'new_resource');
      const phase = req.options?.expected_phase;
      let expectedPhase: UpdateOptions['expectedPhase'] = 'any'; // absent means any phase
      if (phase !== undefined) {
        try {
          expectedPhase = parsePhase(phase);
        } catch (cause) {
          throw new RequestError(status.INVALID_ARGUMENT, `invalid expected_phase ${JSON.stringify(phase)}`, {
            cause,
          });
        }
      }
      await allow(r.metadata, ['update'], signal);
      await core.update(r, { owner: req.options?.owner ?? '', expectedPhase, signal });
      return { resource: toProtoResource(r) };
    }, toStatus('Update')),

    Destroy: unary(async (req: PointerRequest, signal) => {
      const ptr = pointerOf(req);
      await allow(ptr, ['destroy'], signal);
      await core.destroy(ptr, { owner: req.options?.owner ?? '', signal });
      return {};
    }, toStatus('Destroy')),

    Watch: serverStream<WatchRequest, WatchResponse>(
      (req, send, signal) => serveWatch(core, req, send, watchCheck, signal),
      toStatus('Watch'),
    ),

    Teardown: unary(async (req: PointerRequest, signal) => {
      const ptr = pointerOf(req);
      await allow(ptr, ['update'], signal);
      const ready = await derived.teardown(ptr, { owner: req.options?.owner ?? '', signal });
      return { destroy_ready: ready };
    }, toStatus('Teardown')),

    TeardownAndDestroy: unary(async (req: PointerRequest, signal) => {
      const ptr = pointerOf(req);
      // Derived, it is an update followed by a destroy: both must be allowed.
      await allow(ptr, ['update', 'destroy'], signal);
      await derived.teardownAndDestroy(ptr, { owner: req.options?.owner ?? '', signal });
      return {};
    }, toStatus('TeardownAndDestroy')),
  } satisfies Record<keyof typeof stateService, unknown>;

  server.addService(
    stateService as unknown as ServiceDefinition,
    handlers as unknown as UntypedServiceImplementation,
  );
}
