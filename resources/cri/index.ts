// resources/cri: the container runtime — the images imported from the components layer.
// registerCriResources records their definitions so the API can serve them.
import { registerResource } from '../../src/cosi/resource/meta/index.js';
import { defaultRegistry } from '../../src/cosi/resource/registry.js';
import type { ResourceType } from '../../src/cosi/resource/typed.js';
import type { SignalOptions } from '../../src/cosi/state/core.js';
import type { State } from '../../src/cosi/state/state.js';
import { ImageImportStatus } from './image-import-status.js';

export * from './image-import-status.js';
export * from './namespace.js';

export const CRI_TYPES = [ImageImportStatus] as const;

/** registerCriResources records the definitions of the cri types in a state. */
export async function registerCriResources(state: State, opts: SignalOptions = {}): Promise<void> {
  for (const t of CRI_TYPES) await registerResource(state, t, opts);
}

// decoders (gRPC, YAML) rebuild these types from the process-wide registry
for (const t of CRI_TYPES) defaultRegistry.register(t as ResourceType<unknown>);
