// The generation counter of upstream's block.Device: bumped every time a device may have changed (any
// uevent for it, a full re-listing), so a consumer re-probes a device exactly when its generation moves.
// Pure: the caller re-reads the device (readBlockDevice) after an event and folds the result in here.
import type { BlockDevice } from './device.js';

export interface ObservedDevice {
  readonly device: BlockDevice;
  /** 1 at the first sighting, one more at each one after */
  readonly generation: number;
}

/** DeviceTable maps kernel names to what was last read of them. */
export type DeviceTable = ReadonlyMap<string, ObservedDevice>;

/**
 * observe folds one re-read into the table: a device read back is (re)recorded one generation on, and
 * one that is gone (undefined) leaves the table. Upstream likewise trusts sysfs over the event's action.
 */
export function observe(table: DeviceTable, name: string, device: BlockDevice | undefined): DeviceTable {
  const next = new Map(table);
  if (device) next.set(name, { device, generation: (table.get(name)?.generation ?? 0) + 1 });
  else next.delete(name);
  return next;
}

/** observeAll folds a full listing in (the first, or one after a resync): what is not listed is gone. */
export function observeAll(table: DeviceTable, devices: readonly BlockDevice[]): DeviceTable {
  const next = new Map<string, ObservedDevice>();
  for (const device of devices)
    next.set(device.name, { device, generation: (table.get(device.name)?.generation ?? 0) + 1 });
  return next;
}
