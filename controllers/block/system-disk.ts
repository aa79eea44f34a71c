// block.SystemDiskController: the SystemDisk, the disk whose partition is labelled META (where Talos is
// installed), or none. Loop devices are passed over, as upstream: a Talos image may be attached there.
import {
  DiscoveredVolume,
  type DiscoveredVolumeSpec,
  SYSTEM_DISK_ID,
  SystemDisk,
  type SystemDiskSpec,
} from '../../resources/block/index.js';
import { defineController, input, output } from '../../src/cosi/controller/index.js';

export const SYSTEM_DISK_CONTROLLER = 'block.SystemDiskController';

/** META_PARTITION_LABEL is the GPT label of the META partition. */
export const META_PARTITION_LABEL = 'META';

/** SystemDiskController publishes the SystemDisk from the DiscoveredVolumes. */
export const SystemDiskController = defineController({
  name: SYSTEM_DISK_CONTROLLER,
  inputs: [input(DiscoveredVolume)],
  outputs: [output(SystemDisk, 'exclusive')],
  async run(rt, { signal }) {
    for await (const _ of rt.events(signal)) {
      const disk = systemDiskOf((await rt.list(DiscoveredVolume)).map((v) => v.spec));
      if (disk) await rt.modify(SystemDisk, SYSTEM_DISK_ID, () => disk);
      else if (await rt.getOrNull(SystemDisk, SYSTEM_DISK_ID))
        await rt.destroy(SystemDisk.pointer(SYSTEM_DISK_ID));
      rt.resetBackoff();
    }
  },
});

/** systemDiskOf is the parent of the first (by id) META partition not on a loop device. */
export function systemDiskOf(volumes: readonly DiscoveredVolumeSpec[]): SystemDiskSpec | undefined {
  for (const v of volumes) {
    if (v.parent.startsWith('loop')) continue;
    if (v.partitionLabel === META_PARTITION_LABEL) return { diskID: v.parent, devPath: v.parentDevPath };
  }
  return undefined;
}
