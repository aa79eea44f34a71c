// resources/files: the /etc files machined renders (EtcFileSpec) and what is on disk (EtcFileStatus).
// registerFilesResources records the definitions so the API can serve them.
import { registerResource } from '../../src/cosi/resource/meta/index.js';
import { defaultRegistry } from '../../src/cosi/resource/registry.js';
import type { ResourceType } from '../../src/cosi/resource/typed.js';
import type { SignalOptions } from '../../src/cosi/state/core.js';
import type { State } from '../../src/cosi/state/state.js';
import { EtcFileSpec } from './etcfile-spec.js';
import { EtcFileStatus } from './etcfile-status.js';

export * from './etcfile-spec.js';
export * from './etcfile-status.js';
export * from './namespace.js';

export const FILES_TYPES = [EtcFileSpec, EtcFileStatus] as const;

/** registerFilesResources records the definitions of the files types in a state. */
export async function registerFilesResources(state: State, opts: SignalOptions = {}): Promise<void> {
  for (const t of FILES_TYPES) await registerResource(state, t, opts);
}

// decoders (gRPC, YAML) rebuild these types from the process-wide registry, as upstream's init() does
for (const t of FILES_TYPES) defaultRegistry.register(t as ResourceType<unknown>);
