// MachineService.Logs and LogsContainers. Services' logs (namespace `system`, or `kubelet`, as upstream)
// come from the log rings; the CRI driver's (`logs -k`, namespace k8s.io) from the container's CRI log
// file through containerd. Logs of containerd-driver containers of other namespaces are not served yet.
import { type ContainerdHost, sendCriLogs } from '../containers/index.js';
import { checkDriver } from '../containers/inspect.js';
import { ApiError } from '../errors.js';
import { type Handler, serverStreamHandler, unaryHandler } from '../handlers.js';
import type { LogSource } from './deps.js';

export const logsHandler = (logs: LogSource, containerd?: ContainerdHost): Handler =>
  serverStreamHandler(async (req, send, ctx) => {
    // talosctl asks for service logs in the `system` namespace; `-k` asks CRI for container logs
    const namespace = typeof req.namespace === 'string' ? req.namespace : '';
    const id = typeof req.id === 'string' ? req.id : '';
    const driver = String(req.driver ?? 'CONTAINERD');
    const tail = Number(req.tail_lines ?? 0);
    if (namespace !== 'system' && namespace !== '' && id !== 'kubelet') {
      if (!containerd)
        throw new ApiError(
          'unimplemented',
          `Logs of containers (namespace ${namespace}, driver ${driver}) is not implemented: the node runs no container runtime`,
        );
      if (checkDriver(namespace, driver) === 'CRI')
        return sendCriLogs(
          containerd,
          { id, tailLines: tail, follow: req.follow === true },
          send,
          ctx.signal,
        );
      throw new ApiError(
        'unimplemented',
        `Logs of containerd's containers in namespace ${namespace} is not implemented: only the CRI driver's (logs -k)`,
      );
    }
    const ring = logs.find(id);
    if (!ring)
      throw new ApiError(
        'invalid-argument',
        `no log for ${JSON.stringify(id)}: known are ${logs.ids().join(', ')}`,
      );
    const chunks = ring.read({
      signal: ctx.signal,
      follow: req.follow === true,
      // upstream: tail_lines ≤ 0 means the whole kept log
      ...(tail > 0 ? { tailLines: tail } : {}),
    });
    for await (const chunk of chunks) await send({ bytes: chunk });
  });

/** logsContainersHandler lists the log ids, as upstream lists its services' logs. */
export const logsContainersHandler = (logs: LogSource): Handler =>
  unaryHandler(async () => ({ messages: [{ ids: logs.ids() }] }));
