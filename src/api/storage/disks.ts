// StorageService.Disks: the block devices of /sys/block as upstream's Disk message.
import type { Disk } from '../../sys/procfs/block.js';
import { type ProcfsOptions, readDisks } from '../../sys/procfs/readers.js';
import { type Handler, unaryHandler } from '../handlers.js';
import { mapped } from '../machine/errors.js';

/** diskMessage leaves uuid and system_disk unset: Keel learns neither from sysfs. */
export const diskMessage = (d: Disk) => ({
  size: String(d.size),
  model: d.model,
  device_name: d.deviceName,
  name: d.name,
  serial: d.serial,
  modalias: d.modalias,
  wwid: d.wwid,
  type: d.type,
  bus_path: d.busPath,
  subsystem: d.subsystem,
  readonly: d.readonly,
});

export function disksHandler(opts: { readonly procfs?: ProcfsOptions } = {}): Handler {
  return unaryHandler(async () => ({
    messages: [{ disks: (await mapped('Disks', () => readDisks(opts.procfs))).map(diskMessage) }],
  }));
}
