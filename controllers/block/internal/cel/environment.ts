// The two CEL environments upstream evaluates block expressions in (pkg/machinery/cel/celenv): a volume
// locator sees `volume` (a DiscoveredVolumeSpec) and `disk` (a DiskSpec); a disk selector sees `disk` and
// `system_disk`. Field names are the protobuf ones, so upstream's own expressions read the same here;
// integer fields are `uint`, as their proto types are, so `volume.size == 1048576u` type-checks and
// `volume.size == 1048576` is refused, as cel-go refuses it.
import { Environment } from '@marcbachmann/cel-js';
import { UnsignedInt } from '@marcbachmann/cel-js/evaluator';

/** CelVolume is a discovered volume under its protobuf field names (DiscoveredVolumeSpec). */
export interface CelVolume {
  readonly size: number;
  readonly sector_size: number;
  readonly io_size: number;
  readonly name: string;
  readonly uuid: string;
  readonly label: string;
  readonly block_size: number;
  readonly filesystem_block_size: number;
  readonly probed_size: number;
  readonly partition_uuid: string;
  readonly partition_type: string;
  readonly partition_label: string;
  readonly partition_index: number;
  readonly type: string;
  readonly device_path: string;
  readonly parent: string;
  readonly dev_path: string;
  readonly parent_dev_path: string;
  readonly pretty_size: string;
}

/** CelDisk is a disk under its protobuf field names (DiskSpec). */
export interface CelDisk {
  readonly size: number;
  readonly io_size: number;
  readonly sector_size: number;
  readonly readonly: boolean;
  readonly model: string;
  readonly serial: string;
  readonly modalias: string;
  readonly wwid: string;
  readonly bus_path: string;
  readonly sub_system: string;
  readonly transport: string;
  readonly rotational: boolean;
  readonly cdrom: boolean;
  readonly dev_path: string;
  readonly pretty_size: string;
  readonly secondary_disks: readonly string[];
  readonly uuid: string;
  readonly symlinks: readonly string[];
}

type CelType = 'string' | 'uint' | 'bool' | 'list<string>';

const VOLUME_FIELDS: Readonly<Record<keyof CelVolume, CelType>> = {
  size: 'uint',
  sector_size: 'uint',
  io_size: 'uint',
  name: 'string',
  uuid: 'string',
  label: 'string',
  block_size: 'uint',
  filesystem_block_size: 'uint',
  probed_size: 'uint',
  partition_uuid: 'string',
  partition_type: 'string',
  partition_label: 'string',
  partition_index: 'uint',
  type: 'string',
  device_path: 'string',
  parent: 'string',
  dev_path: 'string',
  parent_dev_path: 'string',
  pretty_size: 'string',
};

const DISK_FIELDS: Readonly<Record<keyof CelDisk, CelType>> = {
  size: 'uint',
  io_size: 'uint',
  sector_size: 'uint',
  readonly: 'bool',
  model: 'string',
  serial: 'string',
  modalias: 'string',
  wwid: 'string',
  bus_path: 'string',
  sub_system: 'string',
  transport: 'string',
  rotational: 'bool',
  cdrom: 'bool',
  dev_path: 'string',
  pretty_size: 'string',
  secondary_disks: 'list<string>',
  uuid: 'string',
  symlinks: 'list<string>',
};

/** UNIT_MULTIPLIERS are the `uint` constants every block environment has, IEC and metric. */
export const UNIT_MULTIPLIERS: Readonly<Record<string, bigint>> = {
  KiB: 1n << 10n,
  MiB: 1n << 20n,
  GiB: 1n << 30n,
  TiB: 1n << 40n,
  PiB: 1n << 50n,
  EiB: 1n << 60n,
  kB: 1000n,
  MB: 1000n ** 2n,
  GB: 1000n ** 3n,
  TB: 1000n ** 4n,
  PB: 1000n ** 5n,
  EB: 1000n ** 6n,
};

export type CelEnvironmentName = 'volume locator' | 'disk selector';

function withUnits(env: Environment): Environment {
  for (const [name, value] of Object.entries(UNIT_MULTIPLIERS))
    env.registerConstant(name, 'uint', new UnsignedInt(value));
  return env;
}

/** glob matches `*`, `?` and `[...]` over the whole string, as upstream's disk selectors use it. */
export function glob(pattern: string, s: string): boolean {
  let re = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i] as string;
    if (c === '*') re += '.*';
    else if (c === '?') re += '.';
    else if (c === '[') {
      const end = pattern.indexOf(']', i + 1);
      if (end < 0) re += '\\[';
      else {
        const body = pattern.slice(i + 1, end).replace(/\\/g, '\\\\');
        re += `[${body.startsWith('!') ? `^${body.slice(1)}` : body}]`;
        i = end;
      }
    } else re += c.replace(/[.+^${}()|\\]/g, '\\$&');
  }
  return new RegExp(`^${re}$`, 's').test(s);
}

let volumeEnv: Environment | undefined;
let diskEnv: Environment | undefined;

/** environment builds (once) the named environment. */
export function environment(name: CelEnvironmentName): Environment {
  if (name === 'volume locator') {
    volumeEnv ??= withUnits(
      new Environment()
        .registerType('DiscoveredVolumeSpec', { fields: VOLUME_FIELDS })
        .registerType('DiskSpec', { fields: DISK_FIELDS })
        .registerVariable('volume', 'DiscoveredVolumeSpec')
        .registerVariable('disk', 'DiskSpec'),
    );
    return volumeEnv;
  }
  diskEnv ??= withUnits(
    new Environment()
      .registerType('DiskSpec', { fields: DISK_FIELDS })
      .registerVariable('disk', 'DiskSpec')
      .registerVariable('system_disk', 'bool')
      .registerFunction('glob(string, string): bool', glob),
  );
  return diskEnv;
}

const celValue = (t: CelType, v: unknown): unknown =>
  t === 'uint' ? new UnsignedInt(BigInt(typeof v === 'number' ? Math.trunc(v) : 0)) : v;

function celObject<T extends object>(
  fields: Readonly<Record<string, CelType>>,
  v: T,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const src = v as Record<string, unknown>;
  for (const [k, t] of Object.entries(fields)) out[k] = celValue(t, src[k]);
  return out;
}

/** celVolume and celDisk turn plain specs into the values CEL sees (integers as uint). */
export const celVolume = (v: CelVolume): Record<string, unknown> => celObject(VOLUME_FIELDS, v);
export const celDisk = (d: CelDisk): Record<string, unknown> => celObject(DISK_FIELDS, d);

/** zeroVolume and zeroDisk are the zero specs; a test or a caller fills what it knows. */
export const zeroVolume = (): CelVolume => ({
  size: 0,
  sector_size: 0,
  io_size: 0,
  name: '',
  uuid: '',
  label: '',
  block_size: 0,
  filesystem_block_size: 0,
  probed_size: 0,
  partition_uuid: '',
  partition_type: '',
  partition_label: '',
  partition_index: 0,
  type: '',
  device_path: '',
  parent: '',
  dev_path: '',
  parent_dev_path: '',
  pretty_size: '',
});

export const zeroDisk = (): CelDisk => ({
  size: 0,
  io_size: 0,
  sector_size: 0,
  readonly: false,
  model: '',
  serial: '',
  modalias: '',
  wwid: '',
  bus_path: '',
  sub_system: '',
  transport: '',
  rotational: false,
  cdrom: false,
  dev_path: '',
  pretty_size: '',
  secondary_disks: [],
  uuid: '',
  symlinks: [],
});
