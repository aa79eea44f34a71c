// block.DevicesController: every block device of the kernel as a Device (id: its /dev name), from a walk
// of sysfs at start and again after lost events, and from the kernel's uevents in between. Each write
// bumps the device's generation, which tells discovery and the disks controller to look at it again.
import { Device, type DeviceSpec } from '../../resources/block/index.js';
import { defineController, output } from '../../src/cosi/controller/index.js';
import {
  type BlockDevice,
  type DeviceTable,
  listBlockDevices,
  observe,
  observeAll,
  readBlockDevice,
} from '../../src/sys/block/devices/index.js';
import { isBlockUevent, kernelName, subscribeUevents } from '../../src/sys/block/uevent/index.js';

export const DEVICES_CONTROLLER = 'block.DevicesController';

/** DevicesController mirrors the kernel's block devices into Devices; no polling, uevents wake it. */
export const DevicesController = defineController({
  name: DEVICES_CONTROLLER,
  outputs: [output(Device, 'exclusive')],
  async run(rt, { signal, logger }) {
    // subscribe before the first walk, so that no change falls between the two
    let resync = true;
    const changed = new Set<string>();
    const sub = subscribeUevents({
      match: isBlockUevent,
      signal,
      onEvent: (e) => {
        if (e.kind === 'resync') {
          logger.warn('uevents lost, walking sysfs again', { reason: e.reason });
          resync = true;
        } else {
          changed.add(kernelName(e.uevent));
          // a renamed device leaves its old name behind
          const old = e.uevent.env.DEVPATH_OLD;
          if (old) changed.add(kernelName({ devpath: old }));
        }
        rt.queueReconcile();
      },
    });
    let table: DeviceTable = new Map();
    try {
      for await (const _ of rt.events(signal)) {
        if (resync) {
          resync = false;
          changed.clear();
          table = observeAll(table, await listBlockDevices({ signal }));
          const present = new Set<string>();
          for (const { device } of table.values()) {
            await write(device);
            present.add(idOf(device));
          }
          for (const r of await rt.list(Device))
            if (!present.has(r.metadata.id)) await rt.destroy(Device.pointer(r.metadata.id));
        } else {
          const names = [...changed];
          changed.clear();
          for (const name of names) {
            const before = table.get(name)?.device;
            const device = await readBlockDevice(name, { signal });
            table = observe(table, name, device);
            if (device) await write(device);
            else if (before) await destroyIfPresent(idOf(before));
          }
        }
        rt.resetBackoff();
      }
    } finally {
      sub.close();
    }

    async function write(device: BlockDevice): Promise<void> {
      // the generation carries on from the stored resource, so it keeps moving across restarts
      await rt.modify(Device, idOf(device), (s) => deviceSpecOf(device, s.generation + 1));
    }

    async function destroyIfPresent(id: string): Promise<void> {
      if (await rt.getOrNull(Device, id)) await rt.destroy(Device.pointer(id));
    }
  },
});

/** idOf is the resource id upstream uses: the uevent's DEVNAME, the device node's path under /dev. */
export const idOf = (d: Pick<BlockDevice, 'devPath'>): string => d.devPath.slice('/dev/'.length);

/** deviceSpecOf is a sysfs record as upstream fills its Device from a uevent, at `generation`. */
export function deviceSpecOf(d: BlockDevice, generation: number): DeviceSpec {
  const partition = d.type === 'partition';
  return {
    type: d.type,
    major: d.major,
    minor: d.minor,
    partitionName: partition ? d.partitionName : '',
    partitionNumber: partition ? d.partitionNumber : 0,
    devicePath: `/sys${d.devpath}`,
    generation,
    parent: partition ? d.parent : '',
    secondaries: partition ? [] : [...d.secondaries],
  };
}
