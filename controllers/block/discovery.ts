// block.DiscoveryController: what each block device holds, as a DiscoveredVolume per device and per GPT
// partition, probed whenever a device's generation moves (or a refresh is asked for) under a shared
// lock on its whole disk, so that a writer holding the disk exclusively is never read halfway.
import {
  DEVICE_TYPE_PARTITION,
  Device,
  type DeviceSpec,
  DiscoveredVolume,
  type DiscoveredVolumeSpec,
  DiscoveryRefreshRequest,
  DiscoveryRefreshStatus,
  prettySize,
  REFRESH_ID,
} from '../../resources/block/index.js';
import { defineController, input, output } from '../../src/cosi/controller/index.js';
import {
  type BlockFd,
  closeBlockDevice,
  openBlockDevice,
  tryLockDisk,
  unlockDisk,
} from '../../src/sys/block/devices/index.js';
import { type DeviceProbe, probeDevice, type Signature } from '../../src/sys/block/probe/index.js';
import { RAM_DISK_MAJOR } from './disks.js';

export const DISCOVERY_CONTROLLER = 'block.DiscoveryController';

/**
 * RETRY_MS: a disk locked by someone else, or partitions the kernel has not published yet, are probed
 * again after this, doubled at each failed try up to RETRY_MAX_MS: the kernel never publishes the
 * partitions of a loop device attached without partition scanning, and such a disk must not be read
 * ten times a second for ever.
 */
export const RETRY_MS = 100;
export const RETRY_MAX_MS = 10_000;

/** retryDelay is the wait before the next try after `tries` failed ones in a row. */
export const retryDelay = (tries: number): number =>
  Math.min(RETRY_MS * 2 ** Math.max(0, tries - 1), RETRY_MAX_MS);

/** The fields a probe of the device itself fills; a partition's GPT entry is its disk's probe to fill. */
export type VolumeFields = Omit<
  DiscoveredVolumeSpec,
  'partitionUUID' | 'partitionType' | 'partitionLabel' | 'partitionIndex'
>;

/** PartitionDevice is a partition's Device as discovery needs it: its id and sysfs path. */
export interface PartitionDevice {
  readonly id: string;
  readonly devicePath: string;
}

/** Discovered is one probe turned into volumes: the device's own, its partitions', and entries with no device yet. */
export interface Discovered {
  readonly self: VolumeFields;
  readonly parts: readonly { readonly id: string; readonly spec: DiscoveredVolumeSpec }[];
  /** GPT entries the kernel has no partition device for (yet) */
  readonly pending: readonly number[];
}

/** DiscoveryController publishes DiscoveredVolumes from probes of the Devices. */
export const DiscoveryController = defineController({
  name: DISCOVERY_CONTROLLER,
  inputs: [input(Device), input(DiscoveryRefreshRequest)],
  outputs: [output(DiscoveredVolume, 'exclusive'), output(DiscoveryRefreshStatus, 'exclusive')],
  async run(rt, { signal, logger }) {
    const seen = new Map<string, number>();
    let refresh = 0;
    // devices to probe again on the next pass (locked, partitions pending)
    let retry = new Set<string>();
    const tries = new Map<string, number>();
    let timer: NodeJS.Timeout | undefined;
    try {
      for await (const _ of rt.events(signal)) {
        const request = (await rt.getOrNull(DiscoveryRefreshRequest, REFRESH_ID))?.spec.request;
        if (request !== undefined && request !== refresh) {
          refresh = request;
          seen.clear(); // probe everything again
        }
        const devices = (await rt.list(Device)).filter((d) => d.spec.major !== RAM_DISK_MAJOR);
        const byId = new Map(devices.map((d) => [d.metadata.id, d.spec]));
        const rescan = new Set(retry);
        for (const [id, spec] of byId) {
          if (seen.get(id) === spec.generation) continue;
          // a partition seen for the first time means its disk's table changed: the disk's probe
          // fills its GPT entry, which a probe of the partition alone cannot
          if (!seen.has(id) && spec.parent) rescan.add(spec.parent);
          rescan.add(id);
          seen.set(id, spec.generation);
        }
        for (const id of seen.keys())
          if (!byId.has(id)) {
            rescan.add(id);
            seen.delete(id);
          }
        // a disk's probe covers its partitions
        for (const id of rescan) {
          const parent = byId.get(id)?.parent;
          if (parent && rescan.has(parent)) rescan.delete(id);
        }
        retry = rescan.size ? await probeAll([...rescan], byId) : new Set();
        for (const id of rescan) if (!retry.has(id)) tries.delete(id);
        for (const id of retry) tries.set(id, (tries.get(id) ?? 0) + 1);
        clearTimeout(timer);
        if (retry.size) {
          const next = Math.min(...[...retry].map((id) => retryDelay(tries.get(id) ?? 1)));
          timer = setTimeout(() => rt.queueReconcile(), next);
        }
        await rt.modify(DiscoveryRefreshStatus, REFRESH_ID, (s) => {
          s.request = refresh;
        });
        rt.resetBackoff();
      }
    } finally {
      clearTimeout(timer);
    }

    /** probeAll probes `ids`, writes what was found, removes what is gone; it returns the ids to retry. */
    async function probeAll(
      ids: readonly string[],
      byId: ReadonlyMap<string, DeviceSpec>,
    ): Promise<Set<string>> {
      const touched = new Set<string>();
      const failed = new Set<string>();
      const again = new Set<string>();
      for (const id of ids) {
        const device = byId.get(id);
        if (!device) {
          failed.add(id);
          continue;
        }
        const probed = await probeLocked(id, device);
        if (probed === 'locked') {
          again.add(id);
          continue;
        }
        if (probed instanceof Error) {
          logger.debug('probe failed', { id, error: probed.message });
          failed.add(id);
          continue;
        }
        const found = discoveredVolumesOf(id, device, probed, partitionsOf(id, byId));
        await rt.modify(DiscoveredVolume, id, (s) => ({ ...s, ...found.self }));
        touched.add(id);
        for (const p of found.parts) {
          await rt.modify(DiscoveredVolume, p.id, () => p.spec);
          touched.add(p.id);
        }
        if (found.pending.length) again.add(id);
      }
      for (const dv of await rt.list(DiscoveredVolume)) {
        const id = dv.metadata.id;
        if (touched.has(id)) continue;
        const parent = dv.spec.parent;
        if (failed.has(id) || (parent && (touched.has(parent) || failed.has(parent))))
          await rt.destroy(DiscoveredVolume.pointer(id));
      }
      return again;
    }
  },
});

/** probeLocked probes /dev/<id> under a shared lock on its whole disk: the result, 'locked', or the error. */
async function probeLocked(id: string, device: DeviceSpec): Promise<DeviceProbe | 'locked' | Error> {
  let fd: BlockFd | undefined;
  let whole: BlockFd | undefined;
  try {
    fd = openBlockDevice(`/dev/${id}`);
    whole =
      device.type === DEVICE_TYPE_PARTITION && device.parent ? openBlockDevice(`/dev/${device.parent}`) : fd;
    if (!tryLockDisk(whole, 'shared')) return 'locked';
    try {
      return await probeDevice(fd);
    } finally {
      unlockDisk(whole);
    }
  } catch (e) {
    return e instanceof Error ? e : new Error(String(e));
  } finally {
    if (whole && whole !== fd) closeBlockDevice(whole);
    if (fd) closeBlockDevice(fd);
  }
}

/** partitionsOf maps the partition numbers of disk `id` to their Devices. */
export function partitionsOf(
  id: string,
  byId: ReadonlyMap<string, DeviceSpec>,
): Map<number, PartitionDevice> {
  const out = new Map<number, PartitionDevice>();
  for (const [pid, d] of byId)
    if (d.type === DEVICE_TYPE_PARTITION && d.parent === id)
      out.set(d.partitionNumber, { id: pid, devicePath: d.devicePath });
  return out;
}

const signatureFields = (s: Signature | undefined) => ({
  name: s?.name ?? '',
  uuid: s?.uuid ?? '',
  label: s?.label ?? '',
  blockSize: s?.blockSize ?? 0,
  filesystemBlockSize: s?.filesystemBlockSize ?? 0,
  probedSize: s?.probedSize ?? 0,
});

/**
 * discoveredVolumesOf turns the probe of device `id` into volumes as upstream's discovery does: the
 * device's own, and one per GPT entry whose partition device exists, named by that device.
 */
export function discoveredVolumesOf(
  id: string,
  device: DeviceSpec,
  probe: DeviceProbe,
  partitions: ReadonlyMap<number, PartitionDevice>,
): Discovered {
  const devPath = `/dev/${id}`;
  const self: VolumeFields = {
    devPath,
    type: device.type,
    devicePath: device.devicePath,
    parent: device.parent,
    parentDevPath: device.parent ? `/dev/${device.parent}` : '',
    size: probe.size,
    prettySize: prettySize(probe.size),
    sectorSize: probe.sectorSize,
    ioSize: probe.ioSize,
    ...signatureFields(probe.signature),
  };
  const parts: { id: string; spec: DiscoveredVolumeSpec }[] = [];
  const pending: number[] = [];
  for (const p of probe.parts) {
    const dev = partitions.get(p.index);
    if (!dev) {
      pending.push(p.index);
      continue;
    }
    parts.push({
      id: dev.id,
      spec: {
        devPath: `/dev/${dev.id}`,
        type: DEVICE_TYPE_PARTITION,
        devicePath: dev.devicePath,
        parent: id,
        parentDevPath: devPath,
        size: p.size,
        prettySize: prettySize(p.size),
        sectorSize: probe.sectorSize,
        ioSize: probe.ioSize,
        ...signatureFields(p.signature),
        partitionUUID: p.uuid,
        partitionType: p.type,
        partitionLabel: p.label,
        partitionIndex: p.index,
      },
    });
  }
  return { self, parts, pending };
}
