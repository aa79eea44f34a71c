// VolumeMountRequests.block.talos.dev: a subsystem asks for a volume to be mounted (read-only, or
// detached: mounted without a target path).
import { defineResource, type ResourceOf } from '../../src/cosi/resource/typed.js';
import { type Field, specCodec } from './fields.js';
import { BLOCK_NAMESPACE } from './namespace.js';

/** VolumeMountRequestSpec names the volume and who asks for it. */
export interface VolumeMountRequestSpec {
  volumeID: string;
  readOnly: boolean;
  detached: boolean;
  requester: string;
}

const FIELDS: readonly Field<VolumeMountRequestSpec>[] = [
  { key: 'volumeID', yaml: 'volumeID', kind: 'string', no: 1, proto: 'string' },
  { key: 'readOnly', yaml: 'readOnly', kind: 'bool', no: 3, proto: 'bool' },
  { key: 'detached', yaml: 'detached', kind: 'bool', no: 4, proto: 'bool' },
  { key: 'requester', yaml: 'requester', kind: 'string', no: 2, proto: 'string' },
];

export const VolumeMountRequest = defineResource<VolumeMountRequestSpec>({
  type: 'VolumeMountRequests.block.talos.dev',
  defaultNamespace: BLOCK_NAMESPACE,
  printColumns: [
    { name: 'Volume ID', jsonPath: '{.volumeID}' },
    { name: 'Requester', jsonPath: '{.requester}' },
  ],
  ...specCodec(FIELDS),
});
export type VolumeMountRequest = ResourceOf<typeof VolumeMountRequest>;
