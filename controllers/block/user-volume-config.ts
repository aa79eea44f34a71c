// block.UserVolumeConfigController: the user volumes (UserVolumeConfig → `u-<name>`, mounted under /var/mnt)
// and raw volumes (RawVolumeConfig → `r-<name>`, a partition left unformatted) as VolumeConfigs and
// VolumeMountRequests. A volume dropped from the config loses both; its partition and data stay on disk.

import {
  RAW_VOLUME_LABEL,
  USER_VOLUME_LABEL,
  VolumeConfig,
  type VolumeConfigSpec,
  WAVE_USER_VOLUMES,
  zeroVolumeConfig,
} from '../../resources/block/volume-config.js';
import { FilesystemType, VolumeType } from '../../resources/block/volume-enums.js';
import { VolumeMountRequest } from '../../resources/block/volume-mount-request.js';
import {
  MACHINE_CONFIG_ID,
  MachineConfig,
  type MachineConfigSpec,
} from '../../resources/config/machine-config.js';
import { parseSize } from '../../src/config/validate/formats.js';
import { type Controller, defineController, input, output } from '../../src/cosi/controller/index.js';
import { LINUX_FILESYSTEM_DATA, parseMaxSize } from './volume-config.js';

export const USER_VOLUME_CONTROLLER = 'block.UserVolumeConfigController';
/** the id prefixes of user and raw volumes, which are also their partition labels */
export const USER_VOLUME_PREFIX = 'u-';
export const RAW_VOLUME_PREFIX = 'r-';
/** where user volumes are mounted, each at `<root>/<name>` */
export const USER_VOLUME_MOUNT_POINT = '/var/mnt';
/** the volume user volumes are mounted in: /var/mnt lives on EPHEMERAL */
export const USER_VOLUME_PARENT = 'EPHEMERAL';
/** a user or raw volume without minSize gets upstream's MinUserVolumeSize */
export const MIN_USER_VOLUME_SIZE = 100 * 2 ** 20;

/** UserVolume is one VolumeConfig to write, and whether a mount request goes with it. */
export interface UserVolume {
  readonly id: string;
  readonly label: typeof USER_VOLUME_LABEL | typeof RAW_VOLUME_LABEL;
  readonly spec: VolumeConfigSpec;
  readonly mount: boolean;
}

/** RefusedVolume is a document Keel cannot make a volume of yet: nothing is written for it. */
export interface RefusedVolume {
  readonly id: string;
  readonly reason: string;
}

export interface UserVolumes {
  readonly volumes: readonly UserVolume[];
  readonly refused: readonly RefusedVolume[];
}

/** userVolumeConfigController writes the user and raw volumes' VolumeConfigs and mount requests. */
export function userVolumeConfigController(): Controller {
  return defineController({
    name: USER_VOLUME_CONTROLLER,
    inputs: [input(MachineConfig, { id: MACHINE_CONFIG_ID, kind: 'weak' })],
    // shared, as upstream: VolumeConfigs are also the system volumes', mount requests also machined's
    outputs: [output(VolumeConfig, 'shared'), output(VolumeMountRequest, 'shared')],
    async run(rt, { signal, logger }) {
      for await (const _ of rt.events(signal)) {
        const cfg = await rt.getOrNull(MachineConfig, MACHINE_CONFIG_ID, { signal });
        const { volumes, refused } = userVolumes(cfg?.spec);
        for (const r of refused) logger.error('user volume refused', { volume: r.id, reason: r.reason });
        rt.startTrackingOutputs();
        for (const v of volumes) {
          await rt.modify(
            VolumeConfig,
            v.id,
            (_, md) => {
              md.labels.set(v.label, '');
              return v.spec;
            },
            { signal },
          );
          if (!v.mount) continue;
          await rt.modify(
            VolumeMountRequest,
            v.id,
            (s, md) => {
              md.labels.set(USER_VOLUME_LABEL, '');
              s.volumeID = v.id;
              s.requester = USER_VOLUME_CONTROLLER;
            },
            { signal },
          );
        }
        // what the config no longer names goes: the VolumeConfig and the request, never the partition
        await rt.cleanupOutputs(VolumeConfig, VolumeMountRequest);
        rt.resetBackoff();
      }
    },
  });
}

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => (v !== null && typeof v === 'object' ? (v as Obj) : {});
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/** documentsOf lists the documents of a kind with their names (the header's, or the spec's). */
function documentsOf(cfg: MachineConfigSpec | undefined, kind: string): { name: string; spec: Obj }[] {
  return (cfg?.documents ?? [])
    .filter((d) => d.kind === kind)
    .map((d) => ({ name: d.name ?? str(obj(d.spec).name) ?? '', spec: obj(d.spec) }));
}

/** userVolumes is the pure transform: the config's UserVolumeConfig and RawVolumeConfig documents as volumes. */
export function userVolumes(cfg: MachineConfigSpec | undefined): UserVolumes {
  const volumes: UserVolume[] = [];
  const refused: RefusedVolume[] = [];
  for (const { name, spec } of documentsOf(cfg, 'UserVolumeConfig')) {
    const id = `${USER_VOLUME_PREFIX}${name}`;
    const type = str(spec.volumeType) ?? 'partition';
    const why = unsupported(spec, type);
    if (why) refused.push({ id, reason: why });
    else
      volumes.push({ id, label: USER_VOLUME_LABEL, spec: userVolumeSpec(id, name, spec, type), mount: true });
  }
  for (const { name, spec } of documentsOf(cfg, 'RawVolumeConfig')) {
    const id = `${RAW_VOLUME_PREFIX}${name}`;
    if (spec.encryption) refused.push({ id, reason: ENCRYPTION_REFUSED });
    else
      volumes.push({
        id,
        label: RAW_VOLUME_LABEL,
        spec: partitionVolume(id, obj(spec.provisioning), FilesystemType.None),
        mount: false,
      });
  }
  return { volumes, refused };
}

const ENCRYPTION_REFUSED = 'encryption: volume encryption is not supported yet, so no volume is made';

/** unsupported says why a UserVolumeConfig cannot be made yet; undefined when it can. */
function unsupported(spec: Obj, type: string): string | undefined {
  if (spec.encryption) return ENCRYPTION_REFUSED;
  if (type !== 'partition' && type !== 'directory')
    return `volumeType: ${JSON.stringify(type)} volumes are not supported yet (partition and directory are)`;
  return undefined;
}

/** userVolumeSpec: a partition (or a directory on EPHEMERAL) mounted at /var/mnt/<name>. */
function userVolumeSpec(id: string, name: string, spec: Obj, type: string): VolumeConfigSpec {
  const fs = str(obj(spec.filesystem).type) === 'ext4' ? FilesystemType.EXT4 : FilesystemType.XFS;
  const v =
    type === 'directory'
      ? { ...zeroVolumeConfig(), type: VolumeType.Directory }
      : partitionVolume(id, obj(spec.provisioning), fs);
  v.mount = {
    ...v.mount,
    targetPath: `${USER_VOLUME_MOUNT_POINT}/${name}`,
    parentId: USER_VOLUME_PARENT,
    fileMode: 0o755,
    uid: 0,
    gid: 0,
  };
  return v;
}

/** partitionVolume is a GPT partition labelled with the volume id, found by that label, made when missing. */
function partitionVolume(id: string, p: Obj, fs: FilesystemType): VolumeConfigSpec {
  const v = zeroVolumeConfig();
  v.type = VolumeType.Partition;
  v.locator.match = `volume.partition_label == '${id}'`;
  v.provisioning = {
    wave: WAVE_USER_VOLUMES,
    // an empty selector matches nothing, as upstream's noMatch (validation asks for one anyway)
    diskSelector: { match: str(obj(p.diskSelector).match) || 'false' },
    partitionSpec: {
      minSize: parseSize(str(p.minSize) ?? '') || MIN_USER_VOLUME_SIZE,
      ...parseMaxSize(str(p.maxSize)),
      grow: p.grow === true,
      label: id,
      typeUUID: LINUX_FILESYSTEM_DATA,
    },
    filesystemSpec: { type: fs, label: '' },
  };
  return v;
}
