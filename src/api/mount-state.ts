// Mounts cosi.resource.State over the node's state: src/cosi's own server behind the API access policy,
// each call admitted by the gate (roles, rule table) and routed one-to-one like other envelope-less services.
// That server's modules and the access rule's (resource protobufs and definitions, YAML output: about
// 120) are loaded on the first local call, or once `loadAfter` resolves: a maintenance API listens before
// its first client without them.
import type {
  handleServerStreamingCall,
  handleUnaryCall,
  Server,
  ServerUnaryCall,
  ServerWritableStream,
  ServiceDefinition,
  UntypedHandleCall,
  UntypedServiceImplementation,
} from '@grpc/grpc-js';
import type { ResourceRegistry } from '../cosi/resource/registry.js';
import type { CoreState } from '../cosi/state/core.js';
import { callScope, endStream, writer } from './call.js';
import { callerRoles } from './caller-roles.js';
import { ApiError, toServerError } from './errors.js';
import type { Admitted, Gate } from './gate.js';
import type { ServiceMethods } from './proto.js';
import { checkRequestSize, requestLimit } from './request-limits.js';
import { routeServerStream, routeUnary } from './routing/router.js';

export interface StateMount {
  readonly state: CoreState;
  readonly methods: ServiceMethods;
  readonly registry?: ResourceRegistry;
  readonly gate: Gate;
  readonly closing: AbortSignal;
  /** while the node's state is still being filled: what an admitted call waits for (deferHandlers) */
  readonly ready?: () => Promise<void> | undefined;
  /** when to load the service's implementation if no call has yet; default on the first call only */
  readonly loadAfter?: Promise<void>;
}

type Implementation = Promise<UntypedServiceImplementation>;

/**
 * whenServable runs `serve` with the implementation of `short` once the state is ready (deferHandlers) and
 * the implementation loaded, unless the call went away meanwhile.
 */
function whenServable(
  m: StateMount,
  implementation: () => Implementation,
  short: string,
  call: { readonly cancelled: boolean },
  serve: (original: UntypedHandleCall) => void,
  fail: (err: unknown) => void,
): void {
  Promise.all([m.ready?.(), implementation()])
    .then(([, impl]) => {
      if (call.cancelled) return;
      const original = impl[short];
      if (!original) throw new ApiError('internal', `cosi.resource.State has no ${short}`);
      serve(original);
    })
    .catch(fail);
}

/** captureStateService runs addStateService against a stand-in server to get its implementation. */
async function captureStateService(m: StateMount): Implementation {
  const [{ addStateService }, { accessPolicy }] = await Promise.all([
    import('../cosi/api/server.js'),
    import('./cosi-access.js'),
  ]);
  let captured: UntypedServiceImplementation | undefined;
  const stand = {
    addService(_def: ServiceDefinition, impl: UntypedServiceImplementation) {
      captured = impl;
    },
  } as unknown as Server;
  addStateService(stand, m.state, {
    rule: accessPolicy(m.state),
    ...(m.registry ? { registry: m.registry } : {}),
  });
  if (!captured) throw new ApiError('internal', 'cosi.resource.State did not register');
  return captured;
}

/** A local target never reaches the forwarder path; these stand in for the LocalCall it does not need. */
const unreachable = (method: string) => () =>
  Promise.reject(new ApiError('internal', `${method}: local call on the forwarding path`));

/**
 * endOnClose stops a local State stream when the server closes: its handler only listens for the client's
 * cancellation, so it is told the call is cancelled, and the client gets UNAVAILABLE.
 */
function endOnClose(call: ServerWritableStream<object, object>, method: string, closing: AbortSignal): void {
  const onClose = () => {
    call.emit('cancelled');
    call.emit(
      'error',
      toServerError(new ApiError('unavailable', `${method}: api server shutting down`), method),
    );
  };
  const done = () => closing.removeEventListener('abort', onClose);
  closing.addEventListener('abort', onClose, { once: true });
  call.once('finish', done);
  call.once('cancelled', done);
}

/**
 * Oversized stands for a request over its method's limit: grpc-js parses a request before the handler
 * runs, and fails a parser that throws as INTERNAL, so the parser hands this on and the handler, having
 * admitted the caller, refuses the call with RESOURCE_EXHAUSTED.
 */
class Oversized {
  constructor(readonly bytes: number) {}
}

/** sized is the service definition whose requests are parsed only when within their method's limit. */
function sized(methods: ServiceMethods): ServiceDefinition {
  const out: Record<string, unknown> = {};
  for (const [short, def] of Object.entries(methods)) {
    const limit = requestLimit(def.path);
    // only what the server reads: the lazy descriptor fields (requestType …) stay unbuilt
    out[short] = {
      path: def.path,
      requestStream: def.requestStream,
      responseStream: def.responseStream,
      originalName: def.originalName,
      requestSerialize: def.requestSerialize,
      requestDeserialize: (b: Buffer) =>
        b.length > limit ? new Oversized(b.length) : def.requestDeserialize(b),
      responseSerialize: def.responseSerialize,
      responseDeserialize: def.responseDeserialize,
    };
  }
  return out as ServiceDefinition;
}

/** admit is the gate's admission, then the request's size (the caller learns no limit it may not call) */
function admit(m: StateMount, method: string, call: { readonly request: unknown }): Admitted {
  const admitted = m.gate.admit(method, call as Parameters<Gate['admit']>[1]);
  if (call.request instanceof Oversized) checkRequestSize(method, call.request.bytes);
  return admitted;
}

/** mountState adds cosi.resource.State to `server`. */
export function mountState(server: Server, m: StateMount): void {
  let loaded: Implementation | undefined;
  const implementation = () => (loaded ??= captureStateService(m));
  // a failed load fails the calls that wait for it, each with the error
  void m.loadAfter?.then(() => implementation().catch(() => {}));
  const impl: Record<string, UntypedHandleCall> = {};
  for (const [short, def] of Object.entries(m.methods)) {
    const method = def.path;
    const noLocal = { unary: unreachable(method), serverStream: unreachable(method) };

    if (def.responseStream) {
      impl[short] = ((call: ServerWritableStream<object, object>) => {
        let admitted: Admitted;
        try {
          admitted = admit(m, method, call);
        } catch (err) {
          call.emit('error', toServerError(err, method));
          return;
        }
        if (admitted.route.kind === 'local') {
          endOnClose(call, method, m.closing);
          // The access rule reads the caller's roles from here; it has no call of its own.
          whenServable(
            m,
            implementation,
            short,
            call,
            (original) =>
              callerRoles.run(admitted.caller.roles, () =>
                (original as handleServerStreamingCall<object, object>)(call),
              ),
            // a failed load ends the stream with its error; a wait refused because the server closes
            // does not: endOnClose has ended the stream then
            (err) => {
              if (!m.closing.aborted) call.emit('error', toServerError(err, method));
            },
          );
          return;
        }
        const scope = callScope(call, m.closing);
        const send = writer(call, scope.signal);
        const ctx = m.gate.routeContext(method, call, admitted, scope.signal);
        routeServerStream(ctx, def.requestSerialize(call.request), noLocal, (b) =>
          send(def.responseDeserialize(b)),
        )
          .then(
            () => endStream(call, scope, method),
            (err) => endStream(call, scope, method, err),
          )
          .finally(scope.release);
      }) as UntypedHandleCall;
      continue;
    }

    impl[short] = ((
      call: ServerUnaryCall<object, object>,
      callback: Parameters<handleUnaryCall<object, object>>[1],
    ) => {
      let admitted: Admitted;
      try {
        admitted = admit(m, method, call);
      } catch (err) {
        callback(toServerError(err, method));
        return;
      }
      if (admitted.route.kind === 'local') {
        whenServable(
          m,
          implementation,
          short,
          call,
          (original) =>
            callerRoles.run(admitted.caller.roles, () =>
              (original as handleUnaryCall<object, object>)(call, callback),
            ),
          (err) => callback(toServerError(err, method)),
        );
        return;
      }
      const scope = callScope(call, m.closing);
      routeUnary(
        m.gate.routeContext(method, call, admitted, scope.signal),
        def.requestSerialize(call.request),
        noLocal,
      )
        .then(
          (reply) => callback(null, def.responseDeserialize(reply)),
          (err) => callback(toServerError(err, method)),
        )
        .finally(scope.release);
    }) as UntypedHandleCall;
  }
  server.addService(sized(m.methods), impl as UntypedServiceImplementation);
}
