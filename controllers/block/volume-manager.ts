// block.VolumeManagerController: each VolumeConfig through upstream's phase machine to a VolumeStatus.

import { DiscoveredVolume, type DiscoveredVolumeSpec } from '../../resources/block/discovered-volume.js';
import {
  DISCOVERED_VOLUMES_STATUS_ID,
  DiscoveredVolumesStatus,
} from '../../resources/block/discovered-volumes-status.js';
import { Disk, type DiskSpec } from '../../resources/block/disk.js';
import { SYSTEM_DISK_ID, SystemDisk } from '../../resources/block/system-disk.js';
import {
  isProvisioningZero,
  VolumeConfig,
  type VolumeConfigSpec,
} from '../../resources/block/volume-config.js';
import {
  FilesystemType,
  FilesystemTypes,
  VolumePhase,
  VolumeType,
} from '../../resources/block/volume-enums.js';
import { VOLUME_LIFECYCLE_ID, VolumeLifecycle } from '../../resources/block/volume-lifecycle.js';
import {
  setSize,
  VolumeStatus,
  type VolumeStatusSpec,
  zeroVolumeStatus,
} from '../../resources/block/volume-status.js';
import { type Controller, defineController, input, output } from '../../src/cosi/controller/index.js';
import { type CelDisk, type CelVolume, compiled } from './internal/cel/index.js';
import {
  byProvisioningOrder,
  createPartition,
  type DiskCandidate,
  formatRefusal,
  formatVolume,
  growOnDisk,
  locateOutcome,
  matchDisks,
  systemWaveDeclared,
  VolumeIOError,
  waveProvisioned,
} from './internal/volumes/index.js';

export interface VolumeManagerOptions {
  /** how soon a failed or waiting volume is tried again without an input change (default 30 s) */
  readonly retryMs?: number;
}

/** ManagerInputs is what one pass knows of the node's devices. */
interface ManagerInputs {
  readonly discovered: readonly DiscoveredVolumeSpec[];
  readonly disks: readonly DiskCandidate[];
  readonly devicesReady: boolean;
  readonly signal: AbortSignal;
}

export const VOLUME_MANAGER_CONTROLLER = 'block.VolumeManagerController';

/**
 * volumeManagerController locates, provisions, grows and formats the configured volumes. It holds a
 * finalizer on the VolumeLifecycle while it may touch a disk: once the lifecycle tears down (before a
 * reboot or power-off) it starts no more disk work and releases it, so the power-down never cuts a
 * partition table or a mkfs in half. A pass under way finishes first, since passes run one at a time.
 */
export function volumeManagerController(opts: VolumeManagerOptions = {}): Controller {
  const retryMs = opts.retryMs ?? 30_000;
  return defineController({
    name: VOLUME_MANAGER_CONTROLLER,
    inputs: [
      input(VolumeLifecycle, { id: VOLUME_LIFECYCLE_ID, kind: 'strong' }),
      input(VolumeConfig),
      input(DiscoveredVolume),
      input(Disk),
      input(SystemDisk, { id: SYSTEM_DISK_ID }),
      input(DiscoveredVolumesStatus, { id: DISCOVERED_VOLUMES_STATUS_ID }),
    ],
    outputs: [output(VolumeStatus, 'exclusive')],
    async run(rt, { signal, logger }) {
      let timer: NodeJS.Timeout | undefined;
      signal.addEventListener('abort', () => clearTimeout(timer), { once: true });
      for await (const _ of rt.events(signal)) {
        const lifecycle = await rt.getOrNull(VolumeLifecycle, VOLUME_LIFECYCLE_ID, { signal });
        if (lifecycle?.metadata.phase === 'tearingDown') {
          clearTimeout(timer);
          if (lifecycle.metadata.finalizers.has(VOLUME_MANAGER_CONTROLLER)) {
            await rt.removeFinalizer(lifecycle.metadata, VOLUME_MANAGER_CONTROLLER, { signal });
            logger.info('volume lifecycle torn down: no more disk work');
          }
          continue;
        }
        if (lifecycle && !lifecycle.metadata.finalizers.has(VOLUME_MANAGER_CONTROLLER))
          await rt.addFinalizer(lifecycle.metadata, VOLUME_MANAGER_CONTROLLER, { signal });
        const configs = await rt.list(VolumeConfig, { signal });
        const statuses = new Map(
          (await rt.list(VolumeStatus, { signal })).map((r) => [r.metadata.id, r.spec]),
        );
        const sys = await rt.getOrNull(SystemDisk, SYSTEM_DISK_ID, { signal });
        const inputs: ManagerInputs = {
          discovered: (await rt.list(DiscoveredVolume, { signal })).map((r) => r.spec),
          disks: (await rt.list(Disk, { signal })).map((r) => ({
            disk: celDisk(r.spec),
            systemDisk: !!sys && sys.spec.diskID === r.metadata.id,
          })),
          devicesReady:
            (await rt.getOrNull(DiscoveredVolumesStatus, DISCOVERED_VOLUMES_STATUS_ID, { signal }))?.spec
              .ready ?? false,
          signal,
        };
        const ordered = [...configs].sort((a, b) =>
          byProvisioningOrder(a.spec.provisioning, b.spec.provisioning),
        );
        const phases = new Map(ordered.map((c) => [c.metadata.id, statuses.get(c.metadata.id)?.phase ?? 0]));
        const declared = new Set(phases.keys());
        let again = false;
        rt.startTrackingOutputs();
        for (const cfg of ordered) {
          const id = cfg.metadata.id;
          const st = statuses.get(id) ?? zeroVolumeStatus();
          st.type = cfg.spec.type;
          st.parentID = cfg.spec.parentId;
          st.mountSpec = cfg.spec.mount;
          const earlier = ordered.map((c) => ({
            wave: c.spec.provisioning.wave,
            phase: phases.get(c.metadata.id) as VolumePhase,
          }));
          const before = st.phase;
          const beforeError = st.errorMessage;
          const wave = cfg.spec.provisioning.wave;
          const previousWaveProvisioned =
            waveProvisioned(earlier, wave) && systemWaveDeclared(declared, wave);
          await advance(id, cfg.spec, st, previousWaveProvisioned, inputs);
          // a failure that changes its reason is told too: a retry can pass the phase it failed in
          if (st.phase !== before || st.errorMessage !== beforeError)
            logger.info('volume phase', { volume: id, phase: st.phase, error: st.errorMessage || undefined });
          phases.set(id, st.phase);
          if (st.phase === VolumePhase.Failed || st.phase === VolumePhase.Waiting) again = true;
          await rt.modify(VolumeStatus, id, () => st, { signal });
        }
        await rt.cleanupOutputs(VolumeStatus);
        clearTimeout(timer);
        if (again) timer = setTimeout(() => rt.queueReconcile(), retryMs);
        rt.resetBackoff();
      }
    },
  });
}

/**
 * advance runs the phase machine until the phase stops changing: Waiting/Missing → locate or provision,
 * Located → grow, Provisioned → prepared (no encryption yet), Prepared → format → Ready. A failing step
 * is Failed with its message, and the next pass retries it from the phase it failed in.
 */
async function advance(
  id: string,
  cfg: VolumeConfigSpec,
  st: VolumeStatusSpec,
  previousWaveProvisioned: boolean,
  inputs: ManagerInputs,
): Promise<void> {
  for (let steps = 0; steps < 16; steps++) {
    const from = st.phase;
    try {
      switch (st.phase) {
        case VolumePhase.Failed:
          st.phase = st.preFailPhase;
          break;
        case VolumePhase.Waiting:
        case VolumePhase.Missing:
          await locateAndProvision(id, cfg, st, previousWaveProvisioned, inputs);
          break;
        case VolumePhase.Located:
          if (cfg.provisioning.partitionSpec.grow && st.parentLocation && st.partitionIndex)
            setSize(
              st,
              await growOnDisk(st.parentLocation, st.partitionIndex, cfg.provisioning.partitionSpec, {
                signal: inputs.signal,
              }),
            );
          st.phase = VolumePhase.Provisioned;
          break;
        case VolumePhase.Provisioned:
          st.mountLocation = st.location;
          st.phase = VolumePhase.Prepared;
          break;
        case VolumePhase.Prepared: {
          const fs = cfg.provisioning.filesystemSpec;
          const { uuid } = await formatVolume(st.mountLocation || st.location, fs, { signal: inputs.signal });
          if (fs.type !== FilesystemType.None) st.filesystem = fs.type;
          if (uuid) st.uuid = uuid;
          st.phase = VolumePhase.Ready;
          break;
        }
        default:
          return;
      }
      if (st.phase !== VolumePhase.Failed) st.errorMessage = '';
    } catch (e) {
      if (inputs.signal.aborted) throw e;
      st.preFailPhase = st.phase;
      st.phase = VolumePhase.Failed;
      st.errorMessage = e instanceof Error ? e.message : String(e);
      return;
    }
    if (st.phase === from) return;
  }
}

async function locateAndProvision(
  id: string,
  cfg: VolumeConfigSpec,
  st: VolumeStatusSpec,
  previousWaveProvisioned: boolean,
  inputs: ManagerInputs,
): Promise<void> {
  if (cfg.type === VolumeType.Tmpfs || cfg.type === VolumeType.Directory) {
    st.phase = VolumePhase.Ready; // nothing to find or make: the mount makes the directory
    return;
  }
  if (!cfg.locator.match) throw new Error(`volume ${id}: the volume locator is not set`);
  const locator = compiled('volume locator', cfg.locator.match);
  const byPath = new Map(inputs.disks.map((d) => [d.disk.dev_path, d.disk]));
  const found = inputs.discovered.find((dv) =>
    locator.evaluate({ volume: celVolume(dv), disk: byPath.get(dv.parentDevPath || dv.devPath) }),
  );
  const outcome = locateOutcome({
    located: !!found,
    devicesReady: inputs.devicesReady,
    provisionable: !isProvisioningZero(cfg.provisioning),
    previousWaveProvisioned,
  });
  if (found) {
    st.phase = VolumePhase.Located;
    st.location = found.devPath;
    st.partitionIndex = found.partitionIndex;
    st.parentLocation = found.parentDevPath;
    st.uuid = found.uuid;
    st.partitionUUID = found.partitionUUID;
    // what is on it already: a config without provisioning (STATE before a config) names no filesystem
    st.filesystem = discoveredFilesystem(found.name);
    setSize(st, found.size);
    return;
  }
  if (outcome === 'waiting') st.phase = VolumePhase.Waiting;
  if (outcome === 'missing') st.phase = VolumePhase.Missing;
  if (outcome !== 'provision') return;

  // refused before a disk is touched: a partition made for a filesystem that cannot be made is left over
  const refusal = formatRefusal(cfg.provisioning.filesystemSpec);
  if (refusal) throw new VolumeIOError(`volume ${id}: ${refusal}`, false);

  const selector = cfg.provisioning.diskSelector.match;
  const matched = matchDisks(selector, inputs.disks);
  if (!matched.length)
    throw new VolumeIOError(`volume ${id}: no disk matches ${JSON.stringify(selector)}`, true);
  if (cfg.type === VolumeType.Disk) {
    const disk = matched[0] as CelDisk;
    st.phase = VolumePhase.Provisioned;
    st.location = disk.dev_path;
    st.parentLocation = '';
    setSize(st, disk.size);
    return;
  }
  let last: unknown;
  for (const disk of matched) {
    try {
      const p = await createPartition(disk.dev_path, id, cfg.provisioning.partitionSpec, {
        signal: inputs.signal,
      });
      st.phase = VolumePhase.Provisioned;
      st.location = p.location;
      st.partitionIndex = p.index;
      st.parentLocation = disk.dev_path;
      st.partitionUUID = p.partitionUUID;
      setSize(st, p.size);
      return;
    } catch (e) {
      if (!(e instanceof VolumeIOError)) throw e;
      last = e; // too small or taken: the next matching disk may do
    }
  }
  throw last;
}

/** celVolume and celDisk give CEL the specs under their protobuf field names. */
export const celVolume = (v: DiscoveredVolumeSpec): CelVolume => ({
  size: v.size,
  sector_size: v.sectorSize,
  io_size: v.ioSize,
  name: v.name,
  uuid: v.uuid,
  label: v.label,
  block_size: v.blockSize,
  filesystem_block_size: v.filesystemBlockSize,
  probed_size: v.probedSize,
  partition_uuid: v.partitionUUID,
  partition_type: v.partitionType,
  partition_label: v.partitionLabel,
  partition_index: v.partitionIndex,
  type: v.type,
  device_path: v.devicePath,
  parent: v.parent,
  dev_path: v.devPath,
  parent_dev_path: v.parentDevPath,
  pretty_size: v.prettySize,
});

export const celDisk = (d: DiskSpec): CelDisk => ({
  size: d.size,
  io_size: d.ioSize,
  sector_size: d.sectorSize,
  readonly: d.readonly,
  model: d.model,
  serial: d.serial,
  modalias: d.modalias,
  wwid: d.wwid,
  bus_path: d.busPath,
  sub_system: d.subSystem,
  transport: d.transport,
  rotational: d.rotational,
  cdrom: d.cdrom,
  dev_path: d.devPath,
  pretty_size: d.prettySize,
  secondary_disks: d.secondaryDisks,
  uuid: d.uuid,
  symlinks: d.symlinks,
});

/** discoveredFilesystem is the filesystem type of a probe's name (`xfs`, `vfat` …); None when unknown. */
function discoveredFilesystem(name: string): FilesystemType {
  try {
    return name ? (FilesystemTypes.parse(name) as FilesystemType) : FilesystemType.None;
  } catch {
    return FilesystemType.None;
  }
}
