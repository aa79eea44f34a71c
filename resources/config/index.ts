// resources/config: the machine config as a resource and the node's role derived from it.
// registerConfigResources records both definitions so the API can serve them.

import { registerResource } from '../../src/cosi/resource/meta/index.js';
import { defaultRegistry } from '../../src/cosi/resource/registry.js';
import type { ResourceType } from '../../src/cosi/resource/typed.js';
import type { SignalOptions } from '../../src/cosi/state/core.js';
import type { State } from '../../src/cosi/state/state.js';
import { MachineConfig } from './machine-config.js';
import { MachineType } from './machine-type.js';

export * from './machine-config.js';
export * from './machine-type.js';

/** CONFIG_TYPES lists the resource types of this folder. */
export const CONFIG_TYPES = [MachineConfig, MachineType] as const;

/** registerConfigResources records the definitions of the config types in a state. */
export async function registerConfigResources(state: State, opts: SignalOptions = {}): Promise<void> {
  for (const t of CONFIG_TYPES) await registerResource(state, t, opts);
}

// decoders (gRPC, YAML) rebuild these types from the process-wide registry, as upstream's init() does
for (const t of CONFIG_TYPES) defaultRegistry.register(t as ResourceType<unknown>);
