// MachineService.Logs and LogsContainers, from the log rings. Container logs (the CRI driver, or any
// namespace but `system`) need containerd, which the node does not run yet.
import { ApiError } from '../errors.js';
import { type Handler, serverStreamHandler, unaryHandler } from '../handlers.js';
import type { LogSource } from './deps.js';

export const logsHandler = (logs: LogSource): Handler =>
  serverStreamHandler(async (req, send, ctx) => {
    // talosctl asks for service logs in the `system` namespace; `-k` asks CRI for container logs
    const namespace = typeof req.namespace === 'string' && req.namespace !== '' ? req.namespace : 'system';
    if (req.driver === 'CRI' || namespace !== 'system')
      throw new ApiError(
        'unimplemented',
        `Logs of containers (namespace ${namespace}, driver ${String(req.driver ?? 'CONTAINERD')}) is not implemented: the node runs no container runtime yet`,
      );
    const id = typeof req.id === 'string' ? req.id : '';
    const ring = logs.find(id);
    if (!ring)
      throw new ApiError(
        'invalid-argument',
        `no log for ${JSON.stringify(id)}: known are ${logs.ids().join(', ')}`,
      );
    const tail = Number(req.tail_lines ?? 0);
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
