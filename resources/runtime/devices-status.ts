// DevicesStatuses.runtime.talos.dev: whether the node's devices have settled (udevd up and healthy), so
// that a volume not found among them is missing rather than not yet seen.
import { defineResource, type ResourceOf } from '../../src/cosi/resource/typed.js';
import { RUNTIME_NAMESPACE } from './machine-status.js';

export const DEVICES_ID = 'devices';

/** DevicesStatusSpec: the devices are settled and ready to be used. */
export interface DevicesStatusSpec {
  ready: boolean;
}

export const DevicesStatus = defineResource<DevicesStatusSpec>({
  type: 'DevicesStatuses.runtime.talos.dev',
  defaultNamespace: RUNTIME_NAMESPACE,
  printColumns: [{ name: 'Ready', jsonPath: '{.ready}' }],
  empty: () => ({ ready: false }),
  copy: (s) => ({ ready: s.ready }),
  equal: (a, b) => a.ready === b.ready,
  proto: { ready: { no: 1, kind: 'bool' } },
  fromProto: (v) => ({ ready: v.ready === true }),
  fromYAML: (v) => ({ ready: (v as { ready?: unknown } | null)?.ready === true }),
});
export type DevicesStatus = ResourceOf<typeof DevicesStatus>;
