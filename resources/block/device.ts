// BlockDevices.block.talos.dev: a block device as the kernel announces it (`talosctl get blockdevices`),
// with a generation bumped whenever it may have changed, so that consumers know when to probe it again.
import { defineResource, type ResourceOf } from '../../src/cosi/resource/typed.js';
import { type Field, specCodec } from './fields.js';
import { BLOCK_NAMESPACE } from './namespace.js';

/** The kernel's DEVTYPE values upstream tells apart. */
export const DEVICE_TYPE_DISK = 'disk';
export const DEVICE_TYPE_PARTITION = 'partition';

/** DeviceSpec is one block device: its kind and numbers, its sysfs path and, for a partition, its disk. */
export interface DeviceSpec {
  type: string;
  major: number;
  minor: number;
  partitionName: string;
  partitionNumber: number;
  /** the device's directory in sysfs: `/sys/devices/virtual/block/loop0/loop0p1` */
  devicePath: string;
  /** bumped every time the device might have changed and might need to be probed again */
  generation: number;
  /** a partition's whole disk (its id) */
  parent: string;
  /** the devices a mapped device (dm-crypt, LVM) is made of */
  secondaries: string[];
}

const FIELDS: readonly Field<DeviceSpec>[] = [
  { key: 'type', yaml: 'type', kind: 'string', no: 1, proto: 'string' },
  { key: 'major', yaml: 'major', kind: 'number', no: 2, proto: 'int64' },
  { key: 'minor', yaml: 'minor', kind: 'number', no: 3, proto: 'int64' },
  { key: 'partitionName', yaml: 'partitionName', kind: 'string', no: 4, proto: 'string', omitempty: true },
  { key: 'partitionNumber', yaml: 'partitionNumber', kind: 'number', no: 5, proto: 'int64', omitempty: true },
  { key: 'devicePath', yaml: 'devicePath', kind: 'string', no: 7, proto: 'string' },
  { key: 'generation', yaml: 'generation', kind: 'number', no: 6, proto: 'int64' },
  { key: 'parent', yaml: 'parent', kind: 'string', no: 8, proto: 'string', omitempty: true },
  { key: 'secondaries', yaml: 'secondaries', kind: 'strings', no: 9, proto: 'string', omitempty: true },
];

export const Device = defineResource<DeviceSpec>({
  type: 'BlockDevices.block.talos.dev',
  defaultNamespace: BLOCK_NAMESPACE,
  printColumns: [
    { name: 'Type', jsonPath: '{.type}' },
    { name: 'PartitionName', jsonPath: '{.partitionName}' },
    { name: 'Generation', jsonPath: '{.generation}' },
  ],
  ...specCodec(FIELDS),
});
export type Device = ResourceOf<typeof Device>;
