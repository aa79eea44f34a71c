// controllers/cri: the container runtime — containerd as a service from the components layer, and the
// layer's images imported into it.
import { type ContainerdPaths, containerdServiceController } from './containerd.js';
import { imageImportStatusController } from './image-import-status.js';

export * from './containerd.js';
export * from './image-import-status.js';

/** criControllers are the controllers of containerd with its state and socket at `paths`. */
export const criControllers = (paths: ContainerdPaths) => [
  containerdServiceController(paths),
  imageImportStatusController(paths),
];
