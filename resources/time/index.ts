// resources/time: the clock's sync state as upstream's time package defines it.
// registerTimeResources records the definitions so the API can serve them.
import { registerResource } from '../../src/cosi/resource/meta/index.js';
import { defaultRegistry } from '../../src/cosi/resource/registry.js';
import type { ResourceType } from '../../src/cosi/resource/typed.js';
import type { SignalOptions } from '../../src/cosi/state/core.js';
import type { State } from '../../src/cosi/state/state.js';
import { TimeStatus } from './time-status.js';

export * from './time-status.js';

export const TIME_TYPES = [TimeStatus] as const;

/** registerTimeResources records the definitions of the time types in a state. */
export async function registerTimeResources(state: State, opts: SignalOptions = {}): Promise<void> {
  for (const t of TIME_TYPES) await registerResource(state, t, opts);
}

// decoders (gRPC, YAML) rebuild these types from the process-wide registry, as upstream's init() does
for (const t of TIME_TYPES) defaultRegistry.register(t as ResourceType<unknown>);
