// The block controllers of a node (PID 1 only: in container mode they would walk and probe the host's
// disks, which are not the node's). Loaded with the other controllers, on demand.
import type { Controller } from '../../cosi/controller/index.js';

/**
 * blockControllers makes the discovery controllers (devices, disks, discovered volumes and their
 * status, system disk) and the devices-settled status they wait on.
 */
export async function blockControllers(): Promise<Controller[]> {
  const [block, runtime] = await Promise.all([
    import('../../../controllers/block/index.js'),
    import('../../../controllers/runtime/index.js'),
  ]);
  return [runtime.DevicesStatusController, ...block.blockControllers()];
}
