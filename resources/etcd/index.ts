// resources/etcd: etcd on a control-plane node — its config, the member it runs, its member ID, and the
// bootstrap request. registerEtcdResources records their definitions so the API can serve them.
import { registerResource } from '../../src/cosi/resource/meta/index.js';
import { defaultRegistry } from '../../src/cosi/resource/registry.js';
import type { ResourceType } from '../../src/cosi/resource/typed.js';
import type { SignalOptions } from '../../src/cosi/state/core.js';
import type { State } from '../../src/cosi/state/state.js';
import { EtcdBootstrap } from './bootstrap.js';
import { EtcdConfig } from './config.js';
import { EtcdMember } from './member.js';
import { EtcdSpec } from './spec.js';

export * from './bootstrap.js';
export * from './config.js';
export * from './member.js';
export * from './spec.js';

export const ETCD_TYPES = [EtcdConfig, EtcdSpec, EtcdMember, EtcdBootstrap] as const;

/** registerEtcdResources records the definitions of the etcd types in a state. */
export async function registerEtcdResources(state: State, opts: SignalOptions = {}): Promise<void> {
  for (const t of ETCD_TYPES) await registerResource(state, t, opts);
}

// decoders (gRPC, YAML) rebuild these types from the process-wide registry
for (const t of ETCD_TYPES) defaultRegistry.register(t as ResourceType<unknown>);
