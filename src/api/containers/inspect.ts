// Inspecting a namespace through one of the two drivers, as upstream's getContainerInspector picks them:
// CRI only for `k8s.io`, containerd for any namespace; the result is pods of container views.
import { ApiError } from '../errors.js';
import { type ContainerdHost, withContainerd, withCri } from './connect.js';
import { groupByPod, type PodView } from './container-info.js';
import { containerdViews } from './containerd-view.js';
import { type CriSnapshot, criPods } from './cri-view.js';

export const CRI_NAMESPACE = 'k8s.io';

/** checkDriver refuses what upstream refuses, with its codes and words. */
export function checkDriver(namespace: string, driver: string): 'CRI' | 'CONTAINERD' {
  if (namespace === '') throw new ApiError('invalid-argument', "namespace can't be empty");
  if (driver === 'CRI') {
    if (namespace !== CRI_NAMESPACE)
      throw new ApiError('invalid-argument', 'CRI inspector is supported only for K8s namespace');
    return 'CRI';
  }
  if (driver === 'CONTAINERD') return 'CONTAINERD';
  throw new ApiError('invalid-argument', `unsupported driver "${driver}"`);
}

export async function inspectPods(
  host: ContainerdHost,
  namespace: string,
  driver: 'CRI' | 'CONTAINERD',
  signal: AbortSignal,
): Promise<PodView[]> {
  if (driver === 'CONTAINERD')
    return withContainerd(host, async (c) => {
      const call = { namespace, signal };
      const [images, containers, tasks] = await Promise.all([
        c.images(call),
        c.containers(call),
        c.tasks(call),
      ]);
      return groupByPod(containerdViews(containers, tasks, images));
    });
  return withCri(host, async (c) => {
    const call = { signal };
    const [sandboxes, containers, images] = await Promise.all([
      c.listPodSandbox({ readyOnly: true }, call),
      c.listContainers({}, call),
      c.listImages(call),
    ]);
    const snapshot: CriSnapshot = {
      sandboxes: await Promise.all(
        sandboxes.map(async (sandbox) => ({ sandbox, status: await c.podSandboxStatus(sandbox.id, call) })),
      ),
      containers: await Promise.all(
        containers.map(async (container) => ({
          container,
          status: await c.containerStatus(container.id, call),
        })),
      ),
      images,
    };
    return criPods(snapshot);
  });
}
