// DiscoveredVolumesStatuses.block.talos.dev: whether volume discovery has finished, so that a volume not
// found among the discovered ones is missing rather than not yet seen.
import { defineResource, type ResourceOf } from '../../src/cosi/resource/typed.js';
import { type Field, specCodec } from './fields.js';
import { BLOCK_NAMESPACE } from './namespace.js';

export const DISCOVERED_VOLUMES_STATUS_ID = 'discovered-volumes-status';

/** DiscoveredVolumesStatusSpec: discovery is complete and its volumes can be used. */
export interface DiscoveredVolumesStatusSpec {
  ready: boolean;
}

const FIELDS: readonly Field<DiscoveredVolumesStatusSpec>[] = [
  { key: 'ready', yaml: 'ready', kind: 'bool', no: 1, proto: 'bool' },
];

export const DiscoveredVolumesStatus = defineResource<DiscoveredVolumesStatusSpec>({
  type: 'DiscoveredVolumesStatuses.block.talos.dev',
  defaultNamespace: BLOCK_NAMESPACE,
  printColumns: [{ name: 'Ready', jsonPath: '{.ready}' }],
  ...specCodec(FIELDS),
});
export type DiscoveredVolumesStatus = ResourceOf<typeof DiscoveredVolumesStatus>;
