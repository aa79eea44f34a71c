// Logs of a CRI container (talosctl `logs -k <ns/pod:name[:id]>`): the container found as upstream's CRI
// inspector finds it (by the kubelet's labels, then by part of its id), then its CRI log file, the last
// tail_lines lines of it (all when negative) and, with follow, what is appended.
import { tailFile } from '../../sys/fs/tail-file.js';
import { ApiError } from '../errors.js';
import type { Send } from '../handlers.js';
import { type ContainerdHost, withCri } from './connect.js';
import { parseContainerDisplay } from './cri-view.js';

/** criLogPath is the log file of the container `id` names; NotFound when there is none. */
export async function criLogPath(host: ContainerdHost, id: string, signal: AbortSignal): Promise<string> {
  const { namespace, pod, name, shortId } = parseContainerDisplay(id);
  const notFound = () => new ApiError('not-found', `container "${id}" not found`);
  if (pod === '') throw notFound();
  // a pod sandbox has no log of its own (upstream: "no log available")
  if (name === '') throw new ApiError('failed-precondition', 'no log available');
  return withCri(host, async (c) => {
    const labels = {
      'io.kubernetes.pod.name': pod,
      'io.kubernetes.pod.namespace': namespace,
      'io.kubernetes.container.name': name,
    };
    const found = await c.listContainers({ labels }, { signal });
    const container = shortId ? found.find((x) => x.id.includes(shortId)) : found[0];
    if (!container) throw notFound();
    const { logPath } = await c.containerStatus(container.id, { signal });
    if (logPath === '') throw new ApiError('failed-precondition', 'no log available');
    return logPath;
  });
}

export async function sendCriLogs(
  host: ContainerdHost,
  req: { id: string; tailLines: number; follow: boolean },
  send: Send,
  signal: AbortSignal,
): Promise<void> {
  const path = await criLogPath(host, req.id, signal);
  for await (const chunk of tailFile(path, { tailLines: req.tailLines, follow: req.follow, signal }))
    await send({ bytes: chunk });
}
