// VolumeStatuses.block.talos.dev: where a volume is in the phase machine (waiting, missing, located,
// provisioned, prepared, ready, failed, closed), where it lives and what it holds.
import { cloneData, equalData } from '../../src/cosi/resource/data.js';
import type { ProtoSchema } from '../../src/cosi/resource/proto-schema.js';
import { defineResource, type ResourceOf } from '../../src/cosi/resource/typed.js';
import { BLOCK_NAMESPACE } from './namespace.js';
import { prettySize } from './pretty-size.js';
import { MOUNT_SCHEMA, type MountSpec, mountOf, mountYAML, zeroMount } from './volume-config.js';
import {
  enumField,
  FilesystemType,
  FilesystemTypes,
  VolumePhase,
  VolumePhases,
  VolumeType,
  VolumeTypes,
} from './volume-enums.js';

/** VolumeStatusSpec is what the volume manager found or made of one VolumeConfig. */
export interface VolumeStatusSpec {
  phase: VolumePhase;
  /** the phase to retry from after a failure */
  preFailPhase: VolumePhase;
  type: VolumeType;
  parentID: string;
  /** the raw block device */
  location: string;
  /** what gets mounted: the location, or the opened encrypted device */
  mountLocation: string;
  partitionIndex: number;
  /** the disk of a partition */
  parentLocation: string;
  uuid: string;
  partitionUUID: string;
  size: number;
  prettySize: string;
  filesystem: FilesystemType;
  mountSpec: MountSpec;
  errorMessage: string;
}

export const zeroVolumeStatus = (): VolumeStatusSpec => ({
  phase: VolumePhase.Waiting,
  preFailPhase: VolumePhase.Waiting,
  type: VolumeType.Partition,
  parentID: '',
  location: '',
  mountLocation: '',
  partitionIndex: 0,
  parentLocation: '',
  uuid: '',
  partitionUUID: '',
  size: 0,
  prettySize: '',
  filesystem: FilesystemType.None,
  mountSpec: zeroMount(),
  errorMessage: '',
});

/** setSize sets the size and its pretty form, as upstream's SetSize does. */
export function setSize(s: VolumeStatusSpec, size: number): void {
  s.size = size;
  s.prettySize = prettySize(size);
}

const PROTO: ProtoSchema = {
  phase: { no: 1, kind: 'enum' },
  location: { no: 2, kind: 'string' },
  errorMessage: { no: 3, kind: 'string' },
  uuid: { no: 4, kind: 'string' },
  partitionUUID: { no: 5, kind: 'string' },
  preFailPhase: { no: 6, kind: 'enum' },
  parentLocation: { no: 7, kind: 'string' },
  partitionIndex: { no: 8, kind: 'int64' },
  size: { no: 9, kind: 'uint64' },
  filesystem: { no: 10, kind: 'enum' },
  mountLocation: { no: 11, kind: 'string' },
  prettySize: { no: 13, kind: 'string' },
  mountSpec: { no: 15, kind: 'message', schema: MOUNT_SCHEMA },
  type: { no: 16, kind: 'enum' },
  parentID: { no: 19, kind: 'string' },
};

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => (v !== null && typeof v === 'object' ? (v as Obj) : {});
const num = (v: unknown): number => (typeof v === 'number' ? v : typeof v === 'bigint' ? Number(v) : 0);
const str = (v: unknown): string => (v === undefined || v === null ? '' : String(v));

function specOf(v: unknown, yaml: boolean): VolumeStatusSpec {
  const o = obj(v);
  const e = (en: typeof VolumePhases, x: unknown) => (yaml ? enumField(en, x) : num(x));
  return {
    phase: e(VolumePhases, o.phase) as VolumePhase,
    preFailPhase: e(VolumePhases, o.preFailPhase) as VolumePhase,
    type: e(VolumeTypes, o.type) as VolumeType,
    parentID: str(o.parentID),
    location: str(o.location),
    mountLocation: str(o.mountLocation),
    partitionIndex: num(o.partitionIndex),
    parentLocation: str(o.parentLocation),
    uuid: str(o.uuid),
    partitionUUID: str(o.partitionUUID),
    size: num(o.size),
    prettySize: str(o.prettySize),
    filesystem: e(FilesystemTypes, o.filesystem) as FilesystemType,
    mountSpec: mountOf(o.mountSpec),
    errorMessage: str(o.errorMessage),
  };
}

// the YAML keys in upstream's field order, `omitempty` as tagged (phase and type always)
function toYAML(s: VolumeStatusSpec): Obj {
  const out: Obj = { phase: VolumePhases.text(s.phase) };
  if (s.preFailPhase) out.preFailPhase = VolumePhases.text(s.preFailPhase);
  out.type = VolumeTypes.text(s.type);
  if (s.parentID) out.parentID = s.parentID;
  if (s.location) out.location = s.location;
  if (s.mountLocation) out.mountLocation = s.mountLocation;
  if (s.partitionIndex) out.partitionIndex = s.partitionIndex;
  if (s.parentLocation) out.parentLocation = s.parentLocation;
  if (s.uuid) out.uuid = s.uuid;
  if (s.partitionUUID) out.partitionUUID = s.partitionUUID;
  if (s.size) out.size = s.size;
  if (s.prettySize) out.prettySize = s.prettySize;
  if (s.filesystem) out.filesystem = FilesystemTypes.text(s.filesystem);
  if (!equalData(s.mountSpec, zeroMount())) out.mountSpec = mountYAML(s.mountSpec);
  if (s.errorMessage) out.errorMessage = s.errorMessage;
  return out;
}

export const VolumeStatus = defineResource<VolumeStatusSpec>({
  type: 'VolumeStatuses.block.talos.dev',
  defaultNamespace: BLOCK_NAMESPACE,
  printColumns: [
    { name: 'Type', jsonPath: '{.type}' },
    { name: 'Phase', jsonPath: '{.phase}' },
    { name: 'Location', jsonPath: '{.location}' },
    { name: 'Size', jsonPath: '{.prettySize}' },
  ],
  empty: zeroVolumeStatus,
  copy: (s) => cloneData(s),
  equal: (a, b) => equalData(a, b),
  proto: PROTO,
  fromProto: (v) => specOf(v, false),
  toYAML,
  fromYAML: (v) => specOf(v, true),
});
export type VolumeStatus = ResourceOf<typeof VolumeStatus>;
