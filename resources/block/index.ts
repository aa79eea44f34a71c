// resources/block: the block types as upstream defines them (devices, disks, discovered volumes, the system disk).
// registerBlockResources records their definitions so the API can serve them.
import { registerResource } from '../../src/cosi/resource/meta/index.js';
import { defaultRegistry } from '../../src/cosi/resource/registry.js';
import type { ResourceType } from '../../src/cosi/resource/typed.js';
import type { SignalOptions } from '../../src/cosi/state/core.js';
import type { State } from '../../src/cosi/state/state.js';
import { Device } from './device.js';
import { DiscoveredVolume } from './discovered-volume.js';
import { DiscoveredVolumesStatus } from './discovered-volumes-status.js';
import { DiscoveryRefreshRequest, DiscoveryRefreshStatus } from './discovery-refresh.js';
import { Disk } from './disk.js';
import { SystemDisk } from './system-disk.js';
import { VolumeConfig } from './volume-config.js';
import { VolumeLifecycle } from './volume-lifecycle.js';
import { VolumeMountRequest } from './volume-mount-request.js';
import { VolumeMountStatus } from './volume-mount-status.js';
import { VolumeStatus } from './volume-status.js';

export * from './device.js';
export * from './discovered-volume.js';
export * from './discovered-volumes-status.js';
export * from './discovery-refresh.js';
export * from './disk.js';
export * from './fields.js';
export * from './namespace.js';
export * from './pretty-size.js';
export * from './system-disk.js';
export * from './volume-config.js';
export * from './volume-enums.js';
export * from './volume-lifecycle.js';
export * from './volume-mount-request.js';
export * from './volume-mount-status.js';
export * from './volume-status.js';

/** BLOCK_TYPES: one entry per type; a new block type is one more line here. */
export const BLOCK_TYPES = [
  Device,
  Disk,
  DiscoveredVolume,
  DiscoveredVolumesStatus,
  DiscoveryRefreshRequest,
  DiscoveryRefreshStatus,
  SystemDisk,
  VolumeConfig,
  VolumeLifecycle,
  VolumeMountRequest,
  VolumeMountStatus,
  VolumeStatus,
] as const;

/** registerBlockResources records the definitions of the block types in a state. */
export async function registerBlockResources(state: State, opts: SignalOptions = {}): Promise<void> {
  for (const t of BLOCK_TYPES) await registerResource(state, t, opts);
}

// decoders (gRPC, YAML) rebuild these types from the process-wide registry, as upstream's init() does
for (const t of BLOCK_TYPES) defaultRegistry.register(t as ResourceType<unknown>);
