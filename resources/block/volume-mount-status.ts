// VolumeMountStatuses.block.talos.dev: a granted mount request, where it is mounted. Upstream keeps it
// in resources.InMemoryNamespace; kept with the other block types here until a node serves that one.
import { defineResource, type ResourceOf } from '../../src/cosi/resource/typed.js';
import { type Field, specCodec } from './fields.js';
import { BLOCK_NAMESPACE } from './namespace.js';

/** VolumeMountStatusSpec is one mounted volume for one requester. */
export interface VolumeMountStatusSpec {
  volumeID: string;
  requester: string;
  target: string;
  readOnly: boolean;
  detached: boolean;
}

const FIELDS: readonly Field<VolumeMountStatusSpec>[] = [
  { key: 'volumeID', yaml: 'volumeID', kind: 'string', no: 1, proto: 'string' },
  { key: 'requester', yaml: 'requester', kind: 'string', no: 2, proto: 'string' },
  { key: 'target', yaml: 'target', kind: 'string', no: 3, proto: 'string' },
  { key: 'readOnly', yaml: 'readOnly', kind: 'bool', no: 4, proto: 'bool' },
  { key: 'detached', yaml: 'detached', kind: 'bool', no: 5, proto: 'bool' },
];

export const VolumeMountStatus = defineResource<VolumeMountStatusSpec>({
  type: 'VolumeMountStatuses.block.talos.dev',
  defaultNamespace: BLOCK_NAMESPACE,
  printColumns: [
    { name: 'Volume ID', jsonPath: '{.volumeID}' },
    { name: 'Requester', jsonPath: '{.requester}' },
    { name: 'Target', jsonPath: '{.target}' },
  ],
  ...specCodec(FIELDS),
});
export type VolumeMountStatus = ResourceOf<typeof VolumeMountStatus>;
