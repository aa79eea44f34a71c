// SystemDisks.block.talos.dev: the disk Talos is installed on, the one holding the META partition.
import { defineResource, type ResourceOf } from '../../src/cosi/resource/typed.js';
import { type Field, specCodec } from './fields.js';
import { BLOCK_NAMESPACE } from './namespace.js';

export const SYSTEM_DISK_ID = 'system-disk';

/** SystemDiskSpec names the system disk by id (`sda`) and device node (`/dev/sda`). */
export interface SystemDiskSpec {
  diskID: string;
  devPath: string;
}

const FIELDS: readonly Field<SystemDiskSpec>[] = [
  { key: 'diskID', yaml: 'diskID', kind: 'string', no: 1, proto: 'string' },
  { key: 'devPath', yaml: 'devPath', kind: 'string', no: 2, proto: 'string' },
];

export const SystemDisk = defineResource<SystemDiskSpec>({
  type: 'SystemDisks.block.talos.dev',
  defaultNamespace: BLOCK_NAMESPACE,
  printColumns: [{ name: 'Disk', jsonPath: '{.diskID}' }],
  ...specCodec(FIELDS),
});
export type SystemDisk = ResourceOf<typeof SystemDisk>;
