// The sequences' volumes. The Boot sequence's EPHEMERAL: machined asks for the volume to be mounted at
// /var and waits until it is. A node without a system disk (a live boot from the ISO, nothing installed)
// has no EPHEMERAL to wait for: /var is then a tmpfs (the root filesystem's /var is read-only), so the
// services that keep state there (containerd, etcd) run, and lose it at the next boot. Either way, the
// writable overlays on the read-only root (/etc/cni, /etc/kubernetes) are mounted on /var next.
// Before a wipe or a power-down, the volume lifecycle is torn down.
import {
  BLOCK_NAMESPACE,
  SYSTEM_DISK_ID,
  SystemDisk,
  VolumeMountRequest,
  VolumeMountStatus,
} from '../../../resources/block/index.js';
import type { State } from '../../cosi/state/state.js';
import { MS, mount } from '../../sys/mount.js';
import { readMountInfo } from '../../sys/mountinfo.js';
import type { Volumes } from '../sequencer/index.js';
import { mountOverlays } from './overlay-mounts.js';
import { teardownVolumeLifecycle } from './volume-lifecycle.js';

export const EPHEMERAL_VOLUME_ID = 'EPHEMERAL';
export const EPHEMERAL_MOUNT_REQUEST_ID = 'sequencer-EPHEMERAL';

/** varInMemory mounts a tmpfs at /var, unless something is mounted there already (a sequence re-run). */
export function varInMemory(target = '/var'): boolean {
  if (readMountInfo().some((m) => m.mountPoint === target)) return false;
  mount('tmpfs', target, 'tmpfs', { flags: MS.NOSUID | MS.NODEV, data: 'mode=0755' });
  return true;
}

/** ephemeralVolumes is the Boot sequence's view of the node's volumes. */
export function ephemeralVolumes(
  state: State,
  inMemory: () => boolean = varInMemory,
  overlays: () => string[] = mountOverlays,
): Volumes {
  const mountVar = async (signal: AbortSignal, log: (line: string) => void): Promise<void> => {
    const sys = await state.get(SystemDisk.pointer(SYSTEM_DISK_ID, BLOCK_NAMESPACE)).catch(() => undefined);
    if (!sys) {
      if (inMemory()) log('no system disk: /var is a tmpfs, its contents lost at the next boot');
      return;
    }
    await state.modify(
      VolumeMountRequest.new(BLOCK_NAMESPACE, EPHEMERAL_MOUNT_REQUEST_ID),
      (r) => {
        r.spec = {
          volumeID: EPHEMERAL_VOLUME_ID,
          requester: 'sequencer',
          readOnly: false,
          detached: false,
        };
      },
      { signal },
    );
    const mounted = (await state.watchFor(
      VolumeMountStatus.pointer(EPHEMERAL_MOUNT_REQUEST_ID, BLOCK_NAMESPACE),
      {
        signal,
        eventTypes: ['created', 'updated'],
      },
    )) as VolumeMountStatus;
    log(`EPHEMERAL mounted at ${mounted.spec.target}`);
  };
  return {
    async mountEphemeral({ signal, log }) {
      await mountVar(signal, log);
      const made = overlays();
      if (made.length > 0) log(`overlays mounted: ${made.join(', ')}`);
    },
    teardownLifecycle: (opts) => teardownVolumeLifecycle(state, opts),
  };
}
