// resources/network: the network types as upstream defines them (links, addresses, routes, hostname, resolvers …).
// registerNetworkResources records their definitions so the API can serve them.
import { registerResource } from '../../src/cosi/resource/meta/index.js';
import { defaultRegistry } from '../../src/cosi/resource/registry.js';
import type { ResourceType } from '../../src/cosi/resource/typed.js';
import type { SignalOptions } from '../../src/cosi/state/core.js';
import type { State } from '../../src/cosi/state/state.js';
import { AddressSpec } from './address-spec.js';
import { AddressStatus } from './address-status.js';
import { DeviceConfigSpec } from './device-config-spec.js';
import { HardwareAddr } from './hardware-addr.js';
import { HostnameSpec } from './hostname-spec.js';
import { HostnameStatus } from './hostname-status.js';
import { KernelRefusal } from './kernel-refusal.js';
import { LinkSpec } from './link-spec.js';
import { LinkStatus } from './link-status.js';
import { NetworkStatus } from './network-status.js';
import { NodeAddress } from './node-address.js';
import { NodeAddressFilter } from './node-address-filter.js';
import { NodeAddressSortAlgorithm } from './node-address-sort-algorithm.js';
import { OperatorSpec } from './operator-spec.js';
import { ResolverSpec } from './resolver-spec.js';
import { ResolverStatus } from './resolver-status.js';
import { RouteSpec } from './route-spec.js';
import { RouteStatus } from './route-status.js';
import { TimeServerSpec } from './timeserver-spec.js';
import { TimeServerStatus } from './timeserver-status.js';

export * from './address-enums.js';
export * from './address-spec.js';
export * from './address-status.js';
export * from './bond-enums.js';
export * from './config-layer.js';
export * from './device-config-spec.js';
export * from './enum.js';
export * from './go-text.js';
export * from './hardware-addr.js';
export * from './hostname-spec.js';
export * from './hostname-status.js';
export * from './ids.js';
export * from './ip.js';
export * from './kernel-refusal.js';
export * from './link-enums.js';
export * from './link-kinds.js';
export * from './link-spec.js';
export * from './link-status.js';
export * from './network-status.js';
export * from './node-address.js';
export * from './node-address-filter.js';
export * from './node-address-sort-algorithm.js';
export * from './operator-spec.js';
export * from './resolver-spec.js';
export * from './resolver-status.js';
export * from './route-enums.js';
export * from './route-spec.js';
export * from './route-status.js';
export * from './timeserver-spec.js';
export * from './timeserver-status.js';
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
  LinkStatus,
  AddressStatus,
  RouteStatus,
  ResolverStatus,
  TimeServerStatus,
  NodeAddressFilter,
  NodeAddressSortAlgorithm,
  HardwareAddr,
  DeviceConfigSpec,
  NetworkStatus,
  KernelRefusal,
] as const;

/** registerNetworkResources records the definitions of the network types in a state. */
export async function registerNetworkResources(state: State, opts: SignalOptions = {}): Promise<void> {
  for (const t of NETWORK_TYPES) await registerResource(state, t, opts);
}

// decoders (gRPC, YAML) rebuild these types from the process-wide registry, as upstream's init() does
for (const t of NETWORK_TYPES) defaultRegistry.register(t as ResourceType<unknown>);
