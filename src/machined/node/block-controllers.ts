// The block controllers of a node (PID 1 only: in container mode they would walk and probe the host's
// disks, which are not the node's). Loaded with the other controllers, on demand.
import type { Controller } from '../../cosi/controller/index.js';

/** blockControllers makes the discovery controllers: devices, disks, discovered volumes, system disk. */
export async function blockControllers(): Promise<Controller[]> {
  const block = await import('../../../controllers/block/index.js');
  return block.blockControllers();
}
