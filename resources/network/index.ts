// resources/network: the network types as upstream defines them (links, addresses, routes, hostname, resolvers …).
// registerNetworkResources records their definitions so the API can serve them.
import { registerResource } from '../../src/cosi/resource/meta/index.js';
import { defaultRegistry } from '../../src/cosi/resource/registry.js';
import type { ResourceType } from '../../src/cosi/resource/typed.js';
import type { SignalOptions } from '../../src/cosi/state/core.js';
import type { State } from '../../src/cosi/state/state.js';
import { AddressSpec } from './address-spec.js';
import { HostnameSpec } from './hostname-spec.js';
import { HostnameStatus } from './hostname-status.js';
import { LinkSpec } from './link-spec.js';
import { NodeAddress } from './node-address.js';
import { OperatorSpec } from './operator-spec.js';
import { ResolverSpec } from './resolver-spec.js';
import { RouteSpec } from './route-spec.js';
import { TimeServerSpec } from './timeserver-spec.js';

export * from './address-enums.js';
export * from './address-spec.js';
export * from './bond-enums.js';
export * from './config-layer.js';
export * from './enum.js';
export * from './go-text.js';
export * from './hostname-spec.js';
export * from './hostname-status.js';
export * from './ids.js';
export * from './ip.js';
export * from './link-enums.js';
export * from './link-kinds.js';
export * from './link-spec.js';
export * from './node-address.js';
export * from './operator-spec.js';
export * from './resolver-spec.js';
export * from './route-enums.js';
export * from './route-spec.js';
export * from './timeserver-spec.js';
export * from './wire.js';

export const NETWORK_TYPES = [
  HostnameStatus,
  NodeAddress,
  LinkSpec,
  AddressSpec,
  RouteSpec,
  HostnameSpec,
  ResolverSpec,
  TimeServerSpec,
  OperatorSpec,
] as const;

/** registerNetworkResources records the definitions of the network types in a state. */
export async function registerNetworkResources(state: State, opts: SignalOptions = {}): Promise<void> {
  for (const t of NETWORK_TYPES) await registerResource(state, t, opts);
}

// decoders (gRPC, YAML) rebuild these types from the process-wide registry, as upstream's init() does
for (const t of NETWORK_TYPES) defaultRegistry.register(t as ResourceType<unknown>);
