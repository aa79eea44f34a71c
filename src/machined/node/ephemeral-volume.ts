// The sequences' volumes. The Boot sequence's EPHEMERAL: machined asks for the volume to be mounted at
// /var and waits until it is. A node without a system disk (a live boot from the ISO, nothing installed)
// has no EPHEMERAL to wait for: /var then stays where the root filesystem has it, and the boot goes on.
// Before a wipe or a power-down, the volume lifecycle is torn down.
import {
  BLOCK_NAMESPACE,
  SYSTEM_DISK_ID,
  SystemDisk,
  VolumeMountRequest,
  VolumeMountStatus,
} from '../../../resources/block/index.js';
import type { State } from '../../cosi/state/state.js';
import type { Volumes } from '../sequencer/index.js';
import { teardownVolumeLifecycle } from './volume-lifecycle.js';

export const EPHEMERAL_VOLUME_ID = 'EPHEMERAL';
export const EPHEMERAL_MOUNT_REQUEST_ID = 'sequencer-EPHEMERAL';

/** ephemeralVolumes is the Boot sequence's view of the node's volumes. */
export function ephemeralVolumes(state: State): Volumes {
  return {
    async mountEphemeral({ signal, log }) {
      const sys = await state.get(SystemDisk.pointer(SYSTEM_DISK_ID, BLOCK_NAMESPACE)).catch(() => undefined);
      if (!sys) {
        log('no system disk: /var stays in memory');
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
    },
    teardownLifecycle: (opts) => teardownVolumeLifecycle(state, opts),
  };
}
