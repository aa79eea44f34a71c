// MachineService.Containers: the containers of a namespace through the driver asked for, one
// ContainerInfo per container (a CRI pod's sandbox included), as upstream's server fills them.
import { type Handler, unaryHandler } from '../handlers.js';
import type { ContainerdHost } from './connect.js';
import { containerInfo } from './container-info.js';
import { checkDriver, inspectPods } from './inspect.js';

export const containersHandler = (host: ContainerdHost): Handler =>
  unaryHandler(async (req, ctx) => {
    const namespace = typeof req.namespace === 'string' ? req.namespace : '';
    const driver = checkDriver(namespace, String(req.driver ?? 'CONTAINERD'));
    const pods = await inspectPods(host, namespace, driver, ctx.signal);
    return {
      messages: [
        { containers: pods.flatMap((p) => p.containers.map((c) => containerInfo(namespace, p, c))) },
      ],
    };
  });
