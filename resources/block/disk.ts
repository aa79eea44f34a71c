// Disks.block.talos.dev: a whole disk with what sysfs and the device itself say of it (`talosctl get
// disks`): size, geometry, read-only and optical flags, model, serial, WWID, bus path, transport.
import { defineResource, type ResourceOf } from '../../src/cosi/resource/typed.js';
import { type Field, specCodec } from './fields.js';
import { BLOCK_NAMESPACE } from './namespace.js';

/** DiskSpec is one disk as upstream describes it; sizes are bytes. */
export interface DiskSpec {
  devPath: string;
  size: number;
  /** the size as upstream prints it (go-humanize): `537 MB` */
  prettySize: string;
  ioSize: number;
  sectorSize: number;
  readonly: boolean;
  cdrom: boolean;
  model: string;
  firmwareVersion: string;
  serial: string;
  modalias: string;
  wwid: string;
  uuid: string;
  busPath: string;
  subSystem: string;
  transport: string;
  rotational: boolean;
  /** the disks under a mapped disk's secondaries (a partition is named by its disk) */
  secondaryDisks: string[];
  symlinks: string[];
}

const FIELDS: readonly Field<DiskSpec>[] = [
  { key: 'devPath', yaml: 'dev_path', kind: 'string', no: 14, proto: 'string' },
  { key: 'size', yaml: 'size', kind: 'number', no: 1, proto: 'uint64' },
  { key: 'prettySize', yaml: 'pretty_size', kind: 'string', no: 15, proto: 'string' },
  { key: 'ioSize', yaml: 'io_size', kind: 'number', no: 2, proto: 'uint64' },
  { key: 'sectorSize', yaml: 'sector_size', kind: 'number', no: 3, proto: 'uint64' },
  { key: 'readonly', yaml: 'readonly', kind: 'bool', no: 4, proto: 'bool' },
  { key: 'cdrom', yaml: 'cdrom', kind: 'bool', no: 13, proto: 'bool' },
  { key: 'model', yaml: 'model', kind: 'string', no: 5, proto: 'string', omitempty: true },
  {
    key: 'firmwareVersion',
    yaml: 'firmware_version',
    kind: 'string',
    no: 19,
    proto: 'string',
    omitempty: true,
  },
  { key: 'serial', yaml: 'serial', kind: 'string', no: 6, proto: 'string', omitempty: true },
  { key: 'modalias', yaml: 'modalias', kind: 'string', no: 7, proto: 'string', omitempty: true },
  { key: 'wwid', yaml: 'wwid', kind: 'string', no: 8, proto: 'string', omitempty: true },
  { key: 'uuid', yaml: 'uuid', kind: 'string', no: 17, proto: 'string', omitempty: true },
  { key: 'busPath', yaml: 'bus_path', kind: 'string', no: 9, proto: 'string', omitempty: true },
  { key: 'subSystem', yaml: 'sub_system', kind: 'string', no: 10, proto: 'string', omitempty: true },
  { key: 'transport', yaml: 'transport', kind: 'string', no: 11, proto: 'string', omitempty: true },
  { key: 'rotational', yaml: 'rotational', kind: 'bool', no: 12, proto: 'bool', omitempty: true },
  {
    key: 'secondaryDisks',
    yaml: 'secondary_disks',
    kind: 'strings',
    no: 16,
    proto: 'string',
    omitempty: true,
  },
  { key: 'symlinks', yaml: 'symlinks', kind: 'strings', no: 18, proto: 'string', omitempty: true },
];

export const Disk = defineResource<DiskSpec>({
  type: 'Disks.block.talos.dev',
  defaultNamespace: BLOCK_NAMESPACE,
  printColumns: [
    { name: 'Size', jsonPath: '{.pretty_size}' },
    { name: 'Read Only', jsonPath: '{.readonly}' },
    { name: 'Transport', jsonPath: '{.transport}' },
    { name: 'Rotational', jsonPath: '{.rotational}' },
    { name: 'WWID', jsonPath: '{.wwid}' },
    { name: 'Model', jsonPath: '{.model}' },
    { name: 'Serial', jsonPath: '{.serial}' },
  ],
  ...specCodec(FIELDS),
});
export type Disk = ResourceOf<typeof Disk>;
