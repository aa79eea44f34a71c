// VolumeLifecycles.block.talos.dev: a singleton whose teardown asks the volume manager to close every
// volume; the manager holds a finalizer on it until they are closed.
import { defineResource, type ResourceOf } from '../../src/cosi/resource/typed.js';
import { BLOCK_NAMESPACE } from './namespace.js';

export const VOLUME_LIFECYCLE_ID = 'volumes';

/** VolumeLifecycleSpec is empty: the resource's existence and phase are the signal. */
export type VolumeLifecycleSpec = Record<string, never>;

export const VolumeLifecycle = defineResource<VolumeLifecycleSpec>({
  type: 'VolumeLifecycles.block.talos.dev',
  defaultNamespace: BLOCK_NAMESPACE,
  empty: () => ({}),
  copy: () => ({}),
  equal: () => true,
  proto: {},
  fromProto: () => ({}),
});
export type VolumeLifecycle = ResourceOf<typeof VolumeLifecycle>;
