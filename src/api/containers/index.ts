// src/api/containers: the container RPCs on the node's containerd — MachineService.Containers, the CRI
// driver's Logs, ImageService.List and the deprecated ImageList — reached through its socket.
import type { HandlerMap } from '../handlers.js';
import type { ContainerdHost } from './connect.js';
import { containersHandler } from './containers.js';
import { imageListHandler, imageServiceListHandler } from './images.js';

export type { ContainerdHost } from './connect.js';
export { type ContainerView, containerInfo, groupByPod, type PodView } from './container-info.js';
export { containerdViews } from './containerd-view.js';
export { criLogPath, sendCriLogs } from './cri-logs.js';
export { criPods, parseContainerDisplay } from './cri-view.js';
export { instanceNamespace, namespaceOf } from './images.js';

export function containersHandlers(host: ContainerdHost): HandlerMap {
  return {
    '/machine.MachineService/Containers': containersHandler(host),
    '/machine.MachineService/ImageList': imageListHandler(host),
    '/machine.ImageService/List': imageServiceListHandler(host),
  };
}
