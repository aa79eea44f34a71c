// DiscoveredVolumes.block.talos.dev: what probing a device or partition found on it (`talosctl get
// discoveredvolumes`): the filesystem or signature, its UUID and label, and the partition's GPT entry.
import { defineResource, type ResourceOf } from '../../src/cosi/resource/typed.js';
import { type Field, specCodec } from './fields.js';
import { BLOCK_NAMESPACE } from './namespace.js';

/** DiscoveredVolumeSpec is one probed device or partition; sizes are bytes. */
export interface DiscoveredVolumeSpec {
  devPath: string;
  /** the Device's type: disk or partition */
  type: string;
  devicePath: string;
  parent: string;
  parentDevPath: string;
  size: number;
  prettySize: string;
  sectorSize: number;
  ioSize: number;
  /** what was found: xfs, vfat, talosmeta …; '' for nothing recognised */
  name: string;
  uuid: string;
  label: string;
  blockSize: number;
  filesystemBlockSize: number;
  probedSize: number;
  partitionUUID: string;
  partitionType: string;
  partitionLabel: string;
  partitionIndex: number;
}

const FIELDS: readonly Field<DiscoveredVolumeSpec>[] = [
  { key: 'devPath', yaml: 'dev_path', kind: 'string', no: 17, proto: 'string' },
  { key: 'type', yaml: 'type', kind: 'string', no: 14, proto: 'string' },
  { key: 'devicePath', yaml: 'device_path', kind: 'string', no: 15, proto: 'string' },
  { key: 'parent', yaml: 'parent', kind: 'string', no: 16, proto: 'string', omitempty: true },
  { key: 'parentDevPath', yaml: 'parent_dev_path', kind: 'string', no: 18, proto: 'string', omitempty: true },
  { key: 'size', yaml: 'size', kind: 'number', no: 1, proto: 'uint64' },
  { key: 'prettySize', yaml: 'pretty_size', kind: 'string', no: 19, proto: 'string' },
  { key: 'sectorSize', yaml: 'sector_size', kind: 'number', no: 2, proto: 'uint64', omitempty: true },
  { key: 'ioSize', yaml: 'io_size', kind: 'number', no: 3, proto: 'uint64', omitempty: true },
  { key: 'name', yaml: 'name', kind: 'string', no: 4, proto: 'string' },
  { key: 'uuid', yaml: 'uuid', kind: 'string', no: 5, proto: 'string', omitempty: true },
  { key: 'label', yaml: 'label', kind: 'string', no: 6, proto: 'string', omitempty: true },
  { key: 'blockSize', yaml: 'block_size', kind: 'number', no: 7, proto: 'uint32', omitempty: true },
  {
    key: 'filesystemBlockSize',
    yaml: 'filesystem_block_size',
    kind: 'number',
    no: 8,
    proto: 'uint32',
    omitempty: true,
  },
  { key: 'probedSize', yaml: 'probed_size', kind: 'number', no: 9, proto: 'uint64', omitempty: true },
  { key: 'partitionUUID', yaml: 'partition_uuid', kind: 'string', no: 10, proto: 'string', omitempty: true },
  { key: 'partitionType', yaml: 'partition_type', kind: 'string', no: 11, proto: 'string', omitempty: true },
  {
    key: 'partitionLabel',
    yaml: 'partition_label',
    kind: 'string',
    no: 12,
    proto: 'string',
    omitempty: true,
  },
  {
    key: 'partitionIndex',
    yaml: 'partition_index',
    kind: 'number',
    no: 13,
    proto: 'uint64',
    omitempty: true,
  },
];

export const DiscoveredVolume = defineResource<DiscoveredVolumeSpec>({
  type: 'DiscoveredVolumes.block.talos.dev',
  defaultNamespace: BLOCK_NAMESPACE,
  printColumns: [
    { name: 'Type', jsonPath: '{.type}' },
    { name: 'Size', jsonPath: '{.pretty_size}' },
    { name: 'Discovered', jsonPath: '{.name}' },
    { name: 'Label', jsonPath: '{.label}' },
    { name: 'PartitionLabel', jsonPath: '{.partition_label}' },
  ],
  ...specCodec(FIELDS),
});
export type DiscoveredVolume = ResourceOf<typeof DiscoveredVolume>;
