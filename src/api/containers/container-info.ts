// ContainerView: one container as upstream's inspectors describe it (containers.Container), before it
// becomes a ContainerInfo; a pod groups the views that share its name.
export interface ContainerView {
  /** what talosctl shows as the id: `ns/pod:name:shortid` (CRI), the container id (containerd) */
  readonly display: string;
  readonly id: string;
  readonly uid: string;
  readonly name: string;
  readonly image: string;
  readonly pid: number;
  readonly status: string;
  readonly networkNamespace: string;
  /** the pod's name; a containerd container is its own pod unless Kubernetes labels say otherwise */
  readonly podName: string;
}

export interface PodView {
  readonly name: string;
  readonly containers: readonly ContainerView[];
}

/** containerInfo is the ContainerInfo message, as upstream's Containers fills it. */
export function containerInfo(namespace: string, pod: PodView, c: ContainerView): Record<string, unknown> {
  return {
    namespace,
    id: c.display,
    image: c.image,
    pid: c.pid,
    status: c.status,
    pod_id: pod.name,
    name: c.name,
    network_namespace: c.networkNamespace,
    internal_id: c.id,
    uid: c.uid,
  };
}

/** groupByPod keeps the pods in the order their first container came, each container in its order. */
export function groupByPod(views: readonly ContainerView[]): PodView[] {
  const pods = new Map<string, ContainerView[]>();
  for (const v of views) {
    const list = pods.get(v.podName);
    if (list) list.push(v);
    else pods.set(v.podName, [v]);
  }
  return [...pods].map(([name, containers]) => ({ name, containers }));
}
