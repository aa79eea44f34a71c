// Mounts the Talos services (machine, image, lifecycle, debug, storage, time, cluster, inspect) on a
// grpc-js server as bytes in, bytes out: one generic implementation per call shape, so the router can
// forward or fan out any method without knowing its messages.
import type { Readable } from 'node:stream';
import type {
  handleBidiStreamingCall,
  handleClientStreamingCall,
  handleServerStreamingCall,
  handleUnaryCall,
  MethodDefinition,
  Server,
  ServiceDefinition,
  UntypedHandleCall,
  UntypedServiceImplementation,
} from '@grpc/grpc-js';
import { callScope, endStream, writer } from './call.js';
import { ApiError, toServerError } from './errors.js';
import type { Gate } from './gate.js';
import { type HandlerMap, handlerKind, localCall, streamedLocalCall } from './handlers.js';
import type { ApiServiceName, ServiceMethods } from './proto.js';
import { checkRequestSize } from './request-limits.js';
import { routeBidiStream, routeClientStream, routeServerStream, routeUnary } from './routing/router.js';

/** The services served as bytes; COSI State is mounted through src/cosi instead. */
export const BYTE_SERVICES = [
  'machine.MachineService',
  'machine.ImageService',
  'machine.LifecycleService',
  'machine.DebugService',
  'storage.StorageService',
  'time.TimeService',
  'cluster.ClusterService',
  'inspect.InspectService',
] as const satisfies readonly ApiServiceName[];

const pass = (b: Buffer): Buffer => b;

/**
 * rawDefinition keeps a service's paths and streaming flags but hands bytes to the handlers. It copies
 * only what the server reads: a method's descriptor fields (requestType …) may be built on first read.
 */
function rawDefinition(methods: ServiceMethods): ServiceDefinition {
  const out: Record<string, MethodDefinition<Buffer, Buffer>> = {};
  for (const [name, def] of Object.entries(methods))
    out[name] = {
      path: def.path,
      requestStream: def.requestStream,
      responseStream: def.responseStream,
      originalName: def.originalName,
      requestSerialize: pass,
      requestDeserialize: pass,
      responseSerialize: pass,
      responseDeserialize: pass,
    } as MethodDefinition<Buffer, Buffer>;
  return out as ServiceDefinition;
}

/** chunksOf reads a request stream without destroying it at the end (the status is still to be sent). */
const chunksOf = (call: unknown): AsyncIterable<Buffer> =>
  (call as Readable).iterator({ destroyOnReturn: false }) as AsyncIterable<Buffer>;

export interface ServicesMount {
  readonly services: ReadonlyMap<ApiServiceName, ServiceMethods>;
  /**
   * the handlers a call of `method` runs with, or a promise of them while a server that listened before
   * its node had them waits for them (see StartApiServerOptions.deferHandlers)
   */
  readonly handlersFor: (method: string) => HandlerMap | Promise<HandlerMap>;
  readonly gate: Gate;
  readonly closing: AbortSignal;
}

const NEVER = new AbortController().signal;

/** implementationFor builds the grpc-js handler of one method. */
function implementationFor(def: MethodDefinition<object, object>, m: ServicesMount): UntypedHandleCall {
  const method = def.path;
  const { gate } = m;
  // an unauthorized call is refused before it waits for anything
  const admitThenHandler = (call: Parameters<Gate['admit']>[1], request?: Buffer) => {
    const admitted = gate.admit(method, call);
    // a request message is checked before anything parses it; a stream's messages each by grpc-js
    if (request) checkRequestSize(method, request.length);
    const handlers = m.handlersFor(method);
    return handlers instanceof Promise
      ? handlers.then((h) => ({ admitted, handler: h[method] }))
      : { admitted, handler: handlers[method] };
  };

  if (!def.requestStream && !def.responseStream)
    return ((call, callback) => {
      // a unary call ends by itself: a closing server lets it finish (the drain is bounded by close)
      const scope = callScope(call, NEVER);
      Promise.resolve()
        .then(() => admitThenHandler(call, call.request))
        .then(({ admitted, handler }) => {
          const local = localCall(
            def,
            handler,
            gate.callContext(method, admitted.caller, call.metadata, scope.signal),
          );
          return routeUnary(gate.routeContext(method, call, admitted, scope.signal), call.request, local);
        })
        .then(
          (reply) => callback(null, reply),
          (err) => callback(toServerError(err, method)),
        )
        .finally(scope.release);
    }) satisfies handleUnaryCall<Buffer, Buffer>;

  if (!def.requestStream)
    return ((call) => {
      const scope = callScope(call, m.closing);
      Promise.resolve()
        .then(() => admitThenHandler(call, call.request))
        .then(({ admitted, handler }) => {
          const local = localCall(
            def,
            handler,
            gate.callContext(method, admitted.caller, call.metadata, scope.signal),
          );
          const ctx = gate.routeContext(method, call, admitted, scope.signal);
          return routeServerStream(ctx, call.request, local, writer(call, scope.signal));
        })
        .then(
          () => endStream(call, scope, method),
          (err) => endStream(call, scope, method, err),
        )
        .finally(scope.release);
    }) satisfies handleServerStreamingCall<Buffer, Buffer>;

  if (!def.responseStream)
    return ((call, callback) => {
      const scope = callScope(call, m.closing);
      Promise.resolve()
        .then(() => admitThenHandler(call))
        .then(({ admitted, handler }) => {
          const local = streamedLocalCall(
            def,
            handler,
            gate.callContext(method, admitted.caller, call.metadata, scope.signal),
          );
          return routeClientStream(
            gate.routeContext(method, call, admitted, scope.signal),
            chunksOf(call),
            local,
          );
        })
        .then(
          (reply) => callback(null, reply),
          (err) => callback(toServerError(err, method)),
        )
        .finally(scope.release);
    }) satisfies handleClientStreamingCall<Buffer, Buffer>;

  return ((call) => {
    const scope = callScope(call, m.closing);
    Promise.resolve()
      .then(() => admitThenHandler(call))
      .then(({ admitted, handler }) => {
        const local = streamedLocalCall(
          def,
          handler,
          gate.callContext(method, admitted.caller, call.metadata, scope.signal),
        );
        const ctx = gate.routeContext(method, call, admitted, scope.signal);
        return routeBidiStream(ctx, chunksOf(call), local, writer(call, scope.signal));
      })
      .then(
        () => endStream(call, scope, method),
        (err) => endStream(call, scope, method, err),
      )
      .finally(scope.release);
  }) satisfies handleBidiStreamingCall<Buffer, Buffer>;
}

/**
 * checkHandlers fails at startup for a handler whose path no byte service has, or whose shape does not fit
 * its method, instead of leaving the RPC silently UNIMPLEMENTED.
 */
export function checkHandlers(services: ServicesMount['services'], handlers: HandlerMap): void {
  const defs = new Map<string, MethodDefinition<object, object>>();
  for (const name of BYTE_SERVICES)
    for (const def of Object.values(services.get(name) ?? {})) defs.set(def.path, def);
  for (const [path, handler] of Object.entries(handlers)) {
    if (!handler) continue;
    const def = defs.get(path);
    if (!def)
      throw new ApiError('invalid-argument', `handler for ${path}: no such method in the served services`);
    if (handler.kind !== handlerKind(def))
      throw new ApiError(
        'invalid-argument',
        `handler for ${path}: is ${handler.kind}, the method is ${handlerKind(def)}`,
      );
  }
}

/** mountServices adds every byte service to `server`; whoever hands over handlers checks them (checkHandlers). */
export function mountServices(server: Server, m: ServicesMount): void {
  for (const name of BYTE_SERVICES) {
    const methods = m.services.get(name);
    if (!methods) throw new Error(`${name} is not loaded`);
    const impl: Record<string, UntypedHandleCall> = {};
    for (const [short, def] of Object.entries(methods)) impl[short] = implementationFor(def, m);
    server.addService(rawDefinition(methods), impl as UntypedServiceImplementation);
  }
}
