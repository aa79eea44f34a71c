// The containerd driver's view of a namespace, as upstream's containerd inspector builds it: every
// container with a task, its image resolved to a name through the image list, Kubernetes' labels naming
// its pod and container when present.
import type { ContainerRecord, ImageRecord, TaskRecord } from '../../containerd/index.js';
import type { ContainerView } from './container-info.js';

const POD_NAME = 'io.kubernetes.pod.name';
const POD_NAMESPACE = 'io.kubernetes.pod.namespace';
const CONTAINER_NAME = 'io.kubernetes.container.name';

export function containerdViews(
  containers: readonly ContainerRecord[],
  tasks: readonly TaskRecord[],
  images: readonly ImageRecord[],
): ContainerView[] {
  const taskOf = new Map(tasks.map((t) => [t.containerId, t]));
  const digestOf = new Map(images.map((i) => [i.name, i.target.digest]));
  // digest → name; an image named by its digest alone names nothing
  const nameOf = new Map(
    images.filter((i) => !i.name.startsWith('sha256:')).map((i) => [i.target.digest, i.name]),
  );
  const views: ContainerView[] = [];
  for (const c of containers) {
    const task = taskOf.get(c.id);
    if (!task) continue; // upstream skips a container with no task
    const digest = digestOf.get(c.image) ?? '';
    const podName =
      c.labels[POD_NAME] !== undefined && c.labels[POD_NAMESPACE] !== undefined
        ? `${c.labels[POD_NAMESPACE]}/${c.labels[POD_NAME]}`
        : c.id;
    const k8sName = c.labels[CONTAINER_NAME];
    views.push({
      display: k8sName !== undefined ? `${podName}:${k8sName}` : podName,
      id: c.id,
      uid: '',
      name: k8sName ?? c.id,
      image: nameOf.get(digest) ?? digest,
      pid: task.pid,
      status: task.status,
      networkNamespace: '',
      podName,
    });
  }
  return views;
}
