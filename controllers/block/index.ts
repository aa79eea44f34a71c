// controllers/block: block devices as upstream's block controllers see them: the kernel's devices, the
// disks, what probing finds on them, the system disk, and the system and user volumes made and mounted.
// PID 1 only: a container must not probe its host.
import type { Controller } from '../../src/cosi/controller/index.js';
import { DevicesController } from './devices.js';
import { DiscoveredVolumesStatusController } from './discovered-volumes-status.js';
import { DiscoveryController } from './discovery.js';
import { DisksController } from './disks.js';
import { mountController } from './mount.js';
import { SystemDiskController } from './system-disk.js';
import { userVolumeConfigController } from './user-volume-config.js';
import { volumeConfigController } from './volume-config.js';
import { volumeManagerController } from './volume-manager.js';

export * from './devices.js';
export * from './discovered-volumes-status.js';
export * from './discovery.js';
export * from './disks.js';
export * from './mount.js';
export * from './system-disk.js';
export * from './user-volume-config.js';
export * from './volume-config.js';
export * from './volume-manager.js';

/**
 * blockControllers are the node's block controllers in pipeline order, one line per controller: discovery,
 * then the system and user volumes (config → locate/provision/format → mount).
 */
export function blockControllers(): Controller[] {
  return [
    DevicesController,
    DisksController,
    DiscoveryController,
    DiscoveredVolumesStatusController,
    SystemDiskController,
    volumeConfigController(),
    userVolumeConfigController(),
    volumeManagerController(),
    mountController(),
  ];
}
