// VolumeConfigs.block.talos.dev: how to find a volume (a CEL locator), and how to provision it when it
// is missing (a CEL disk selector, a partition's size and label, a filesystem), as upstream's
// VolumeConfigController writes it for the system volumes (META, STATE, EPHEMERAL) and its
// UserVolumeConfigController for the user and raw volumes.
import { cloneData, equalData } from '../../src/cosi/resource/data.js';
import type { ProtoSchema } from '../../src/cosi/resource/proto-schema.js';
import { defineResource, type ResourceOf } from '../../src/cosi/resource/typed.js';
import { BLOCK_NAMESPACE } from './namespace.js';
import { enumField, FilesystemType, FilesystemTypes, VolumeType, VolumeTypes } from './volume-enums.js';

/** Provisioning waves: a wave starts once every volume of the waves before it is provisioned. */
export const WAVE_SYSTEM_DISK = -1;
export const WAVE_USER_VOLUMES = 0;
export const WAVE_LEGACY_USER_DISKS = 1_000_000;

/** the label VolumeConfigController puts on the system volumes it writes */
export const SYSTEM_VOLUME_LABEL = 'talos.dev/system-volume';
/** the labels UserVolumeConfigController puts on the user (`u-<name>`) and raw (`r-<name>`) volumes */
export const USER_VOLUME_LABEL = 'talos.dev/user-volume';
export const RAW_VOLUME_LABEL = 'talos.dev/raw-volume';

export interface PartitionSpec {
  /** bytes */
  minSize: number;
  /** bytes; 0 means as large as the free space allows */
  maxSize: number;
  /** a percentage of the disk's size, used instead of maxSize when set */
  relativeMaxSize: number;
  /** maxSize (or relativeMaxSize) is what stays free, not what the partition takes */
  negativeMaxSize: boolean;
  grow: boolean;
  label: string;
  typeUUID: string;
}

export interface FilesystemSpec {
  type: FilesystemType;
  label: string;
}

export interface ProvisioningSpec {
  wave: number;
  /** CEL over `disk` and `system_disk` */
  diskSelector: { match: string };
  partitionSpec: PartitionSpec;
  filesystemSpec: FilesystemSpec;
}

export interface MountSpec {
  targetPath: string;
  selinuxLabel: string;
  projectQuotaSupport: boolean;
  parentId: string;
  fileMode: number;
  uid: number;
  gid: number;
  recursiveRelabel: boolean;
}

/** VolumeConfigSpec is one volume as the node wants it. */
export interface VolumeConfigSpec {
  parentId: string;
  type: VolumeType;
  provisioning: ProvisioningSpec;
  /** CEL over `volume` and `disk` */
  locator: { match: string };
  mount: MountSpec;
}

export const zeroPartitionSpec = (): PartitionSpec => ({
  minSize: 0,
  maxSize: 0,
  relativeMaxSize: 0,
  negativeMaxSize: false,
  grow: false,
  label: '',
  typeUUID: '',
});

export const zeroProvisioning = (): ProvisioningSpec => ({
  wave: 0,
  diskSelector: { match: '' },
  partitionSpec: zeroPartitionSpec(),
  filesystemSpec: { type: FilesystemType.None, label: '' },
});

export const zeroMount = (): MountSpec => ({
  targetPath: '',
  selinuxLabel: '',
  projectQuotaSupport: false,
  parentId: '',
  fileMode: 0,
  uid: 0,
  gid: 0,
  recursiveRelabel: false,
});

export const zeroVolumeConfig = (): VolumeConfigSpec => ({
  parentId: '',
  type: VolumeType.Partition,
  provisioning: zeroProvisioning(),
  locator: { match: '' },
  mount: zeroMount(),
});

/** isProvisioningZero: no provisioning instructions, so a volume not found is Missing. */
export const isProvisioningZero = (p: ProvisioningSpec): boolean => equalData(p, zeroProvisioning());

// The CEL expressions travel upstream as google.api.expr CheckedExpr messages (an AST, fields 1 of
// DiskSelector and LocatorSpec); they are left out of the protobuf form here and carried by yaml_spec.
const PARTITION_SCHEMA: ProtoSchema = {
  minSize: { no: 1, kind: 'uint64' },
  maxSize: { no: 2, kind: 'uint64' },
  grow: { no: 3, kind: 'bool' },
  label: { no: 4, kind: 'string' },
  typeUUID: { no: 5, kind: 'string' },
  relativeMaxSize: { no: 6, kind: 'uint64' },
  negativeMaxSize: { no: 7, kind: 'bool' },
};

export const MOUNT_SCHEMA: ProtoSchema = {
  targetPath: { no: 1, kind: 'string' },
  selinuxLabel: { no: 2, kind: 'string' },
  projectQuotaSupport: { no: 3, kind: 'bool' },
  parentId: { no: 4, kind: 'string' },
  fileMode: { no: 5, kind: 'uint32' },
  uid: { no: 6, kind: 'int64' },
  gid: { no: 7, kind: 'int64' },
  recursiveRelabel: { no: 8, kind: 'bool' },
};

const PROTO: ProtoSchema = {
  parentId: { no: 1, kind: 'string' },
  type: { no: 2, kind: 'enum' },
  provisioning: {
    no: 3,
    kind: 'message',
    schema: {
      partitionSpec: { no: 2, kind: 'message', schema: PARTITION_SCHEMA },
      wave: { no: 3, kind: 'int64' },
      filesystemSpec: {
        no: 4,
        kind: 'message',
        schema: { type: { no: 1, kind: 'enum' }, label: { no: 2, kind: 'string' } },
      },
    },
  },
  mount: { no: 5, kind: 'message', schema: MOUNT_SCHEMA },
};

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => (v !== null && typeof v === 'object' ? (v as Obj) : {});
const num = (v: unknown): number => (typeof v === 'number' ? v : typeof v === 'bigint' ? Number(v) : 0);
const str = (v: unknown): string => (v === undefined || v === null ? '' : String(v));

function partitionOf(v: unknown): PartitionSpec {
  const o = obj(v);
  return {
    minSize: num(o.minSize),
    maxSize: num(o.maxSize),
    relativeMaxSize: num(o.relativeMaxSize),
    negativeMaxSize: o.negativeMaxSize === true,
    grow: o.grow === true,
    label: str(o.label),
    typeUUID: str(o.typeUUID),
  };
}

export function mountOf(v: unknown): MountSpec {
  const o = obj(v);
  return {
    targetPath: str(o.targetPath),
    selinuxLabel: str(o.selinuxLabel),
    projectQuotaSupport: o.projectQuotaSupport === true,
    parentId: str(o.parentId),
    fileMode: num(o.fileMode),
    uid: num(o.uid),
    gid: num(o.gid),
    recursiveRelabel: o.recursiveRelabel === true,
  };
}

function specOf(v: unknown, enumsAsText: boolean): VolumeConfigSpec {
  const o = obj(v);
  const p = obj(o.provisioning);
  const fs = obj(p.filesystemSpec);
  return {
    parentId: str(o.parentId),
    type: (enumsAsText ? enumField(VolumeTypes, o.type) : num(o.type)) as VolumeType,
    provisioning: {
      wave: num(p.wave),
      diskSelector: { match: str(obj(p.diskSelector).match) },
      partitionSpec: partitionOf(p.partitionSpec),
      filesystemSpec: {
        type: (enumsAsText ? enumField(FilesystemTypes, fs.type) : num(fs.type)) as FilesystemType,
        label: str(fs.label),
      },
    },
    locator: { match: str(obj(o.locator).match) },
    mount: mountOf(o.mount),
  };
}

/** omitZero drops keys whose value is zero, as `omitempty` does, keeping those named in `keep`. */
function omitZero(o: Obj, keep: readonly string[] = []): Obj {
  const out: Obj = {};
  for (const [k, v] of Object.entries(o)) {
    const zero =
      v === '' || v === 0 || v === false || (typeof v === 'object' && v !== null && !Object.keys(v).length);
    if (!zero || keep.includes(k)) out[k] = v;
  }
  return out;
}

/** mountYAML renders a MountSpec as upstream does (targetPath, selinuxLabel, projectQuotaSupport always). */
export const mountYAML = (m: MountSpec): Obj =>
  omitZero({ ...m }, ['targetPath', 'selinuxLabel', 'projectQuotaSupport']);

// upstream's `omitempty` on a struct drops it when every field is zero
function toYAML(s: VolumeConfigSpec): Obj {
  const p = s.provisioning;
  const provisioning: Obj = {};
  if (p.wave) provisioning.wave = p.wave;
  if (p.diskSelector.match) provisioning.diskSelector = { match: p.diskSelector.match };
  if (!equalData(p.partitionSpec, zeroPartitionSpec()))
    provisioning.partitionSpec = omitZero({ ...p.partitionSpec }, ['minSize', 'grow']);
  if (p.filesystemSpec.type || p.filesystemSpec.label)
    provisioning.filesystemSpec = omitZero(
      { type: FilesystemTypes.text(p.filesystemSpec.type), label: p.filesystemSpec.label },
      ['type'],
    );
  const out: Obj = {};
  if (s.parentId) out.parentId = s.parentId;
  out.type = VolumeTypes.text(s.type);
  out.provisioning = provisioning;
  out.locator = s.locator.match ? { match: s.locator.match } : {};
  if (!equalData(s.mount, zeroMount())) out.mount = mountYAML(s.mount);
  return out;
}

export const VolumeConfig = defineResource<VolumeConfigSpec>({
  type: 'VolumeConfigs.block.talos.dev',
  defaultNamespace: BLOCK_NAMESPACE,
  sensitivity: 'sensitive',
  empty: zeroVolumeConfig,
  copy: (s) => cloneData(s),
  equal: (a, b) => equalData(a, b),
  proto: PROTO,
  fromProto: (v) => specOf(v, false),
  toYAML,
  fromYAML: (v) => specOf(v, true),
});
export type VolumeConfig = ResourceOf<typeof VolumeConfig>;
