// The node's side of Reset: what the block resources say the system disk holds (for planReset), and the
// wipe itself — each partition unmounted if it is mounted, then wiped fast (discard, the first and last
// MiB zeroed) under its disk's exclusive lock, so udev and the probes leave it alone meanwhile.
import {
  BLOCK_NAMESPACE,
  DiscoveredVolume,
  Disk,
  SYSTEM_DISK_ID,
  SystemDisk,
} from '../../../resources/block/index.js';
import type { State } from '../../cosi/state/state.js';
import { closeBlockDevice, fastWipe, lockDisk, openBlockDevice } from '../../sys/block/devices/index.js';
import { unmountVolume } from '../../sys/block/volume-mount.js';
import { type MountInfo, readMountInfo } from '../../sys/mountinfo.js';
import { overlayUpper } from '../unmount-all.js';
import type { ResetInputs, ResetPlan } from './reset-plan.js';

/** resetInputs reads the system disk, its partitions and the node's disks from the block resources. */
export async function resetInputs(state: State): Promise<ResetInputs> {
  const sys = (await state.get(SystemDisk.pointer(SYSTEM_DISK_ID, BLOCK_NAMESPACE)).catch(() => undefined)) as
    | SystemDisk
    | undefined;
  const volumes = (await state.list({
    namespace: BLOCK_NAMESPACE,
    type: DiscoveredVolume.type,
  })) as DiscoveredVolume[];
  const disks = (await state.list({ namespace: BLOCK_NAMESPACE, type: Disk.type })) as Disk[];
  const systemDisk = sys?.spec.devPath || undefined;
  return {
    systemDisk,
    partitions: volumes
      .filter(
        (v) => v.spec.type === 'partition' && v.spec.parentDevPath === systemDisk && v.spec.partitionLabel,
      )
      .map((v) => ({ label: v.spec.partitionLabel, devPath: v.spec.devPath })),
    disks: disks.map((d) => `/dev/${d.metadata.id}`),
  };
}

/**
 * unmountsFor lists what to unmount before `devPath` is wiped: its mounts and every mount at or beneath
 * them, the latest first (mountinfo lists mounts in the order they were made, so a child after its parent).
 */
export function unmountsFor(
  mounts: readonly (Pick<MountInfo, 'source' | 'mountPoint'> & Partial<MountInfo>)[],
  devPath: string,
): string[] {
  const points = mounts.filter((m) => m.source === devPath).map((m) => m.mountPoint);
  const beneath = (p: string) => points.some((t) => p === t || p.startsWith(t.endsWith('/') ? t : `${t}/`));
  // an overlay writing to the device (/etc/cni, its upper directory on /var) holds it open wherever it is
  const writesBeneath = (m: Partial<MountInfo>) => {
    const upper = overlayUpper(m);
    return upper !== undefined && beneath(upper);
  };
  return mounts
    .filter((m) => beneath(m.mountPoint) || writesBeneath(m))
    .map((m) => m.mountPoint)
    .reverse();
}

/** wipeForReset unmounts and wipes what the plan names; it stops at the first failure, naming it. */
export async function wipeForReset(
  plan: ResetPlan,
  opts: { readonly signal: AbortSignal; readonly log: (line: string) => void },
): Promise<void> {
  const targets = [
    ...plan.partitions.map((p) => ({
      what: `partition ${p.label}`,
      devPath: p.devPath,
      disk: plan.systemDisk ?? p.devPath,
    })),
    ...plan.userDisks.map((d) => ({ what: 'user disk', devPath: d, disk: d })),
  ];
  for (const t of targets) {
    opts.signal.throwIfAborted();
    // mounted from this device, and whatever is mounted beneath (user volumes under /var/mnt): taken
    // down first, children before parents
    for (const point of unmountsFor(readMountInfo(), t.devPath))
      if (unmountVolume(point)) opts.log(`unmounted ${point}`);
    // the whole disk's lock, as udev and the probes take it, held while the device is wiped; a whole
    // disk is locked and wiped through one writable descriptor
    const whole = t.disk === t.devPath;
    const disk = openBlockDevice(t.disk, { write: whole });
    try {
      await lockDisk(disk, 'exclusive', { signal: opts.signal, timeoutMs: 30_000 });
      const dev = whole ? disk : openBlockDevice(t.devPath, { write: true });
      try {
        const r = await fastWipe(dev, { signal: opts.signal });
        opts.log(`wiped ${t.what} ${t.devPath} (${r.size} bytes${r.discarded ? ', discarded' : ''})`);
      } finally {
        if (!whole) closeBlockDevice(dev);
      }
    } finally {
      closeBlockDevice(disk);
    }
  }
}
