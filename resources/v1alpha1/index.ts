// resources/v1alpha1: machined's own resources: the Service mirror of the supervisor, and the ServiceSpecs
// the supervisor runs.
// registerV1Alpha1Resources records their definitions so the API can serve them.
import { registerResource } from '../../src/cosi/resource/meta/index.js';
import { defaultRegistry } from '../../src/cosi/resource/registry.js';
import type { ResourceType } from '../../src/cosi/resource/typed.js';
import type { SignalOptions } from '../../src/cosi/state/core.js';
import type { State } from '../../src/cosi/state/state.js';
import { Service } from './service.js';
import { ServiceSpec } from './service-spec.js';

export * from './service.js';
export * from './service-spec.js';

export const V1ALPHA1_TYPES = [Service, ServiceSpec] as const;

/** registerV1Alpha1Resources records the definitions of the v1alpha1 types in a state. */
export async function registerV1Alpha1Resources(state: State, opts: SignalOptions = {}): Promise<void> {
  for (const t of V1ALPHA1_TYPES) await registerResource(state, t, opts);
}

// decoders (gRPC, YAML) rebuild these types from the process-wide registry
for (const t of V1ALPHA1_TYPES) defaultRegistry.register(t as ResourceType<unknown>);
