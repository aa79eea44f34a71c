// resources/network: the few network types other rooms read today (hostname, node addresses).
// registerNetworkResources records their definitions so the API can serve them.
import { registerResource } from '../../src/cosi/resource/meta/index.js';
import { defaultRegistry } from '../../src/cosi/resource/registry.js';
import type { ResourceType } from '../../src/cosi/resource/typed.js';
import type { SignalOptions } from '../../src/cosi/state/core.js';
import type { State } from '../../src/cosi/state/state.js';
import { HostnameStatus } from './hostname-status.js';
import { NodeAddress } from './node-address.js';

export * from './hostname-status.js';
export * from './ip.js';
export * from './node-address.js';

export const NETWORK_TYPES = [HostnameStatus, NodeAddress] as const;

/** registerNetworkResources records the definitions of the network types in a state. */
export async function registerNetworkResources(state: State, opts: SignalOptions = {}): Promise<void> {
  for (const t of NETWORK_TYPES) await registerResource(state, t, opts);
}

// decoders (gRPC, YAML) rebuild these types from the process-wide registry, as upstream's init() does
for (const t of NETWORK_TYPES) defaultRegistry.register(t as ResourceType<unknown>);
