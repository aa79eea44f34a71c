// The block controllers of a node (PID 1 only: in container mode they would walk and probe the host's
// disks, which are not the node's). Loaded with the other controllers, on demand.
import { keelVersion } from '../../api/version.js';
import type { Controller } from '../../cosi/controller/index.js';

/**
 * blockControllers makes the discovery controllers (devices, disks, discovered volumes and their
 * status, system disk), the devices-settled status they wait on, the volume and mount controllers, the
 * node identity kept on STATE, and the components layer mounted from the installed disk or the boot
 * medium (an installed disk keeps one per version: this build's tag names it, as it names the UKI).
 */
export async function blockControllers(): Promise<Controller[]> {
  const [block, runtime, cluster] = await Promise.all([
    import('../../../controllers/block/index.js'),
    import('../../../controllers/runtime/index.js'),
    import('../../../controllers/cluster/index.js'),
  ]);
  // the node's identity is kept on STATE, so it comes with the volumes
  return [
    runtime.DevicesStatusController,
    ...block.blockControllers(),
    cluster.nodeIdentityController(),
    runtime.componentsLayerController({ version: keelVersion().tag }),
  ];
}
