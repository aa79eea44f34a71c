// The gate every call passes first: who is calling (certificate or maintenance reader), may they call this
// method, and where does the call go.
import type { Metadata } from '@grpc/grpc-js';
import { type ApiMode, authorize } from './auth/authorize.js';
import { type Caller, callerFromCertificate, MAINTENANCE_CALLER } from './auth/roles.js';
import type { AnyCall } from './call.js';
import type { CallContext } from './handlers.js';
import type { Forwarder } from './routing/forwarder.js';
import type { RouteContext } from './routing/router.js';
import { namesThisNode } from './routing/self-target.js';
import { type Route, routeOf } from './routing/targets.js';

export interface Admitted {
  readonly caller: Caller;
  readonly route: Route;
}

export interface Gate {
  /** admit authenticates, authorizes and routes a call, or throws the status to answer with */
  admit(method: string, call: AnyCall): Admitted;
  routeContext(method: string, call: AnyCall, admitted: Admitted, signal: AbortSignal): RouteContext;
  callContext(method: string, caller: Caller, metadata: Metadata, signal: AbortSignal): CallContext;
}

export interface GateOptions {
  readonly mode: ApiMode;
  /** the node's names besides its bound address (addresses, hostname), read at each call */
  readonly localNames: () => Iterable<string>;
  /** this node's own name for `proxyfrom`, known once the port is bound */
  readonly self: () => string;
  readonly forwarder?: Forwarder;
}

export function newGate(opts: GateOptions): Gate {
  const { mode, localNames, forwarder } = opts;
  const isLocal = (node: string) => namesThisNode(node, { bound: opts.self(), names: localNames() });
  return {
    admit(method, call) {
      const caller =
        mode === 'maintenance'
          ? MAINTENANCE_CALLER
          : callerFromCertificate(call.getAuthContext().sslPeerCertificate, call.metadata);
      authorize(method, caller, mode);
      // Maintenance mode serves everything here, whatever the routing keys say.
      let route: Route = mode === 'maintenance' ? { kind: 'local' } : routeOf(method, call.metadata);
      // A single node that is this one is served in place, exactly like no routing at all.
      if (route.kind === 'one-to-one' && isLocal(route.node)) route = { kind: 'local' };
      return { caller, route };
    },
    routeContext(method, call, { caller, route }, signal) {
      const deadline = call.getDeadline();
      return {
        method,
        route,
        metadata: call.metadata,
        roles: caller.roles,
        self: opts.self(),
        signal,
        ...(deadline !== Number.POSITIVE_INFINITY ? { deadline } : {}),
        isLocal,
        ...(forwarder ? { forwarder } : {}),
      };
    },
    callContext: (method, caller, metadata, signal) => ({ method, caller, metadata, signal }),
  };
}
