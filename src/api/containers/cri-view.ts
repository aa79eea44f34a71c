// The CRI driver's view, as upstream's CRI inspector builds it: each ready pod sandbox as a pseudo
// container named after the pod (pid, image and network namespace from the runtime's verbose info), then
// the pod's containers as `ns/pod:name:shortid`, images resolved to their first tag.
import type {
  CriContainerRecord,
  CriImageRecord,
  PodSandboxRecord,
  StatusRecord,
} from '../../containerd/index.js';
import type { ContainerView, PodView } from './container-info.js';

export interface CriSnapshot {
  readonly sandboxes: readonly { readonly sandbox: PodSandboxRecord; readonly status: StatusRecord }[];
  readonly containers: readonly { readonly container: CriContainerRecord; readonly status: StatusRecord }[];
  readonly images: readonly CriImageRecord[];
}

/** VerboseInfo: the fields Keel reads from the `info` JSON containerd's CRI adds to a verbose status. */
interface VerboseInfo {
  readonly pid?: unknown;
  readonly image?: unknown;
  readonly runtimeSpec?: { linux?: { namespaces?: { type?: unknown; path?: unknown }[] } };
}

export function verboseInfo(status: StatusRecord): VerboseInfo {
  try {
    const v = JSON.parse(status.info.info ?? '{}') as unknown;
    return typeof v === 'object' && v !== null ? (v as VerboseInfo) : {};
  } catch {
    return {}; // upstream ignores info it cannot parse
  }
}

const pidOf = (v: VerboseInfo) => (typeof v.pid === 'number' ? v.pid : 0);

export const podNameOf = (labels: Readonly<Record<string, string>>) =>
  `${labels['io.kubernetes.pod.namespace'] ?? ''}/${labels['io.kubernetes.pod.name'] ?? ''}`;

/** sandboxView is a pod sandbox as the pseudo container upstream lists first in its pod. */
export function sandboxView(sandbox: PodSandboxRecord, status: StatusRecord): ContainerView {
  const info = verboseInfo(status);
  const name = `${sandbox.namespace}/${sandbox.name}`;
  const netns = (info.runtimeSpec?.linux?.namespaces ?? []).find((n) => n.type === 'network');
  return {
    display: name,
    id: sandbox.id,
    uid: sandbox.uid,
    name,
    image: typeof info.image === 'string' ? info.image : '',
    pid: pidOf(info),
    status: status.state,
    networkNamespace: typeof netns?.path === 'string' ? (netns.path.split('/').pop() ?? '') : '',
    podName: name,
  };
}

/** containerView is a CRI container, with its log file. */
export function containerView(
  c: CriContainerRecord,
  status: StatusRecord,
): ContainerView & { logPath: string } {
  const podName = podNameOf(c.labels);
  return {
    display: `${podName}:${c.name}:${c.id.slice(0, 12)}`,
    id: c.id,
    uid: '',
    name: c.name,
    image: c.imageRef,
    pid: pidOf(verboseInfo(status)),
    status: c.state,
    networkNamespace: '',
    podName,
    logPath: status.logPath,
  };
}

export function criPods(s: CriSnapshot): PodView[] {
  const tagOf = new Map(s.images.filter((i) => i.repoTags.length > 0).map((i) => [i.id, i.repoTags[0]!]));
  const named = (v: ContainerView): ContainerView => ({ ...v, image: tagOf.get(v.image) ?? v.image });
  const pods = new Map<string, { name: string; containers: ContainerView[] }>();
  for (const { sandbox, status } of s.sandboxes) {
    const v = named(sandboxView(sandbox, status));
    pods.set(sandbox.id, { name: v.podName, containers: [v] });
  }
  for (const { container, status } of s.containers) {
    const pod = pods.get(container.podSandboxId);
    if (!pod) continue; // a container of a sandbox that is not ready: upstream leaves it out
    const { logPath: _, ...v } = containerView(container, status);
    pod.containers.push(named(v));
  }
  return [...pods.values()];
}

/** parseContainerDisplay splits `ns/pod:name:shortid` (each part after the pod optional), as upstream. */
export function parseContainerDisplay(id: string): {
  namespace: string;
  pod: string;
  name: string;
  shortId: string;
} {
  const slash = id.indexOf('/');
  if (slash < 0) return { namespace: '', pod: '', name: id, shortId: '' };
  const namespace = id.slice(0, slash);
  const [pod = '', name = '', ...rest] = id.slice(slash + 1).split(':');
  return { namespace, pod, name, shortId: rest.join(':') };
}
