// resources/runtime: what machined reports about the machine itself (stage and readiness, boot id, META,
// the layers mounted: components and Kubernetes, kernel parameters).
// registerRuntimeResources records their definitions so the API can serve them.
import { registerResource } from '../../src/cosi/resource/meta/index.js';
import { defaultRegistry } from '../../src/cosi/resource/registry.js';
import type { ResourceType } from '../../src/cosi/resource/typed.js';
import type { SignalOptions } from '../../src/cosi/state/core.js';
import type { State } from '../../src/cosi/state/state.js';
import { BootID } from './boot-id.js';
import { ComponentsLayer } from './components-layer.js';
import { DevicesStatus } from './devices-status.js';
import { KernelParamDefaultSpec, KernelParamSpec } from './kernel-param-spec.js';
import { KernelParamStatus } from './kernel-param-status.js';
import { MachineStatus } from './machine-status.js';
import { MetaKey } from './meta-key.js';
import { MetaLoaded } from './meta-loaded.js';

export * from './boot-id.js';
export * from './components-layer.js';
export * from './devices-status.js';
export * from './kernel-param-spec.js';
export * from './kernel-param-status.js';
export * from './machine-status.js';
export * from './meta-key.js';
export * from './meta-loaded.js';

export const RUNTIME_TYPES = [
  MachineStatus,
  BootID,
  MetaKey,
  MetaLoaded,
  DevicesStatus,
  ComponentsLayer,
  KernelParamSpec,
  KernelParamDefaultSpec,
  KernelParamStatus,
] as const;

/** registerRuntimeResources records the definitions of the runtime types in a state. */
export async function registerRuntimeResources(state: State, opts: SignalOptions = {}): Promise<void> {
  for (const t of RUNTIME_TYPES) await registerResource(state, t, opts);
}

// decoders (gRPC, YAML) rebuild these types from the process-wide registry
for (const t of RUNTIME_TYPES) defaultRegistry.register(t as ResourceType<unknown>);
