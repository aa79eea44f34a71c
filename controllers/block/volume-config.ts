// block.VolumeConfigController: the system volumes' VolumeConfigs, from defaults and the machine config.

import {
  SYSTEM_VOLUME_LABEL,
  VolumeConfig,
  type VolumeConfigSpec,
  WAVE_SYSTEM_DISK,
  zeroVolumeConfig,
} from '../../resources/block/volume-config.js';
import { FilesystemType, VolumeType } from '../../resources/block/volume-enums.js';
import {
  MACHINE_CONFIG_ID,
  MachineConfig,
  type MachineConfigSpec,
} from '../../resources/config/machine-config.js';
import { parseSize } from '../../src/config/validate/formats.js';
import { type Controller, defineController, input, output } from '../../src/cosi/controller/index.js';

export const META_LOCATOR =
  "volume.partition_label == 'META' && volume.name in ['', 'talosmeta'] && volume.size == 1048576u";
export const SYSTEM_DISK_MATCH = 'system_disk';
/** the GPT type of Linux filesystem data */
export const LINUX_FILESYSTEM_DATA = '0FC63DAF-8483-4772-8E79-3D69D8477DE4';
export const STATE_SIZE = 100 * 2 ** 20;
export const EPHEMERAL_MIN_SIZE = 2 * 2 ** 30;

const labelMatch = (label: string) => `volume.partition_label == '${label}'`;

export interface VolumeConfigOptions {
  /** a metal agent never finds STATE without a config, so it runs without one (upstream's isAgent) */
  readonly metalAgent?: boolean;
}

/** volumeConfigController writes the system volumes' VolumeConfigs: META always, STATE and EPHEMERAL. */
export function volumeConfigController(opts: VolumeConfigOptions = {}): Controller {
  return defineController({
    name: 'block.VolumeConfigController',
    inputs: [input(MachineConfig, { id: MACHINE_CONFIG_ID, kind: 'weak' })],
    outputs: [output(VolumeConfig, 'shared')],
    async run(rt, { signal }) {
      for await (const _ of rt.events(signal)) {
        const cfg = await rt.getOrNull(MachineConfig, MACHINE_CONFIG_ID, { signal });
        rt.startTrackingOutputs();
        for (const [id, spec] of systemVolumes(cfg?.spec, opts))
          await rt.modify(
            VolumeConfig,
            id,
            (_, md) => {
              md.labels.set(SYSTEM_VOLUME_LABEL, '');
              return spec;
            },
            { signal },
          );
        await rt.cleanupOutputs(VolumeConfig);
        rt.resetBackoff();
      }
    },
  });
}

type Doc = { readonly kind: string; readonly name?: string; readonly spec: unknown };
type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => (v !== null && typeof v === 'object' ? (v as Obj) : {});

/** hasMachine: a config with a machine section is a node's config, not a partial one. */
const hasMachine = (cfg?: MachineConfigSpec): boolean =>
  !!cfg?.documents.some((d) => d.kind === 'v1alpha1' && obj((d as Doc).spec).machine);

/** volumeDocument finds the VolumeConfig document named `name`. */
function volumeDocument(cfg: MachineConfigSpec, name: string): Obj {
  const d = cfg.documents.find(
    (x) => x.kind === 'VolumeConfig' && ((x as Doc).name ?? obj((x as Doc).spec).name) === name,
  );
  return obj((d as Doc | undefined)?.spec);
}

export interface MaxSize {
  readonly maxSize: number;
  readonly relativeMaxSize: number;
  readonly negativeMaxSize: boolean;
}

/** parseMaxSize reads a document's maxSize: bytes ("10GiB"), a share of the disk ("80%"), or "-" what stays free. */
export function parseMaxSize(text: string | undefined): MaxSize {
  const none = { maxSize: 0, relativeMaxSize: 0, negativeMaxSize: false };
  if (!text) return none;
  const negativeMaxSize = text.trim().startsWith('-');
  const body = negativeMaxSize ? text.trim().slice(1) : text.trim();
  const pct = /^(\d{1,3})%$/.exec(body);
  if (pct) return { maxSize: 0, relativeMaxSize: Number(pct[1]), negativeMaxSize };
  return { maxSize: parseSize(body) ?? 0, relativeMaxSize: 0, negativeMaxSize };
}

/** systemVolumes is upstream's system volume set without a container: META, then STATE and EPHEMERAL. */
export function systemVolumes(
  cfg: MachineConfigSpec | undefined,
  opts: VolumeConfigOptions = {},
): [string, VolumeConfigSpec][] {
  const meta = zeroVolumeConfig();
  meta.locator.match = META_LOCATOR;
  const out: [string, VolumeConfigSpec][] = [['META', meta]];

  const state = zeroVolumeConfig();
  state.mount = { ...state.mount, targetPath: '/system/state', fileMode: 0o700 };
  if (cfg && hasMachine(cfg)) {
    state.locator.match = labelMatch('STATE');
    state.provisioning = {
      wave: WAVE_SYSTEM_DISK,
      diskSelector: { match: SYSTEM_DISK_MATCH },
      partitionSpec: {
        minSize: STATE_SIZE,
        maxSize: STATE_SIZE,
        relativeMaxSize: 0,
        negativeMaxSize: false,
        grow: false,
        label: 'STATE',
        typeUUID: LINUX_FILESYSTEM_DATA,
      },
      filesystemSpec: { type: FilesystemType.XFS, label: 'STATE' },
    };
  } else {
    // without a config only a formatted STATE is taken: a blank one waits for the config to provision it
    state.locator.match = opts.metalAgent ? 'false' : `${labelMatch('STATE')} && volume.name != ''`;
  }
  out.push(['STATE', state]);
  if (!cfg || !hasMachine(cfg)) return out;

  const doc = obj(volumeDocument(cfg, 'EPHEMERAL').provisioning);
  const str = (v: unknown) => (typeof v === 'string' ? v : undefined);
  const eph = zeroVolumeConfig();
  eph.type = VolumeType.Partition;
  eph.locator.match = labelMatch('EPHEMERAL');
  eph.provisioning = {
    wave: WAVE_SYSTEM_DISK,
    diskSelector: { match: str(obj(doc.diskSelector).match) || SYSTEM_DISK_MATCH },
    partitionSpec: {
      minSize: parseSize(str(doc.minSize) ?? '') ?? EPHEMERAL_MIN_SIZE,
      ...parseMaxSize(str(doc.maxSize)),
      grow: typeof doc.grow === 'boolean' ? doc.grow : true,
      label: 'EPHEMERAL',
      typeUUID: LINUX_FILESYSTEM_DATA,
    },
    filesystemSpec: { type: FilesystemType.XFS, label: 'EPHEMERAL' },
  };
  eph.mount = { ...eph.mount, targetPath: '/var', fileMode: 0o755 };
  out.push(['EPHEMERAL', eph]);
  return out;
}
