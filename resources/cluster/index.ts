// resources/cluster: the node as a member of its cluster (today its identity, kept on STATE).
// registerClusterResources records their definitions so the API can serve them.
import { registerResource } from '../../src/cosi/resource/meta/index.js';
import { defaultRegistry } from '../../src/cosi/resource/registry.js';
import type { ResourceType } from '../../src/cosi/resource/typed.js';
import type { SignalOptions } from '../../src/cosi/state/core.js';
import type { State } from '../../src/cosi/state/state.js';
import { Identity } from './identity.js';

export * from './identity.js';

export const CLUSTER_TYPES = [Identity] as const;

/** registerClusterResources records the definitions of the cluster types in a state. */
export async function registerClusterResources(state: State, opts: SignalOptions = {}): Promise<void> {
  for (const t of CLUSTER_TYPES) await registerResource(state, t, opts);
}

// decoders (gRPC, YAML) rebuild these types from the process-wide registry
for (const t of CLUSTER_TYPES) defaultRegistry.register(t as ResourceType<unknown>);
