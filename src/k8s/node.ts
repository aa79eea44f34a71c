// The Node object, as far as machined reads and writes it (labels, annotations, taints, unschedulable), and
// its get and update: an update sends back the whole object read, so its resourceVersion makes a
// concurrent writer's change a Conflict rather than a lost write, as client-go's Nodes().Update.
import type { KubeClient, KubeObject } from './client.js';

export interface Taint {
  key: string;
  value?: string;
  /** NoSchedule, PreferNoSchedule, NoExecute */
  effect: string;
  timeAdded?: string;
}

/** KubeNode: the fields machined touches, typed; the rest of the object travels untouched. */
export interface KubeNode extends KubeObject {
  metadata: {
    name: string;
    labels?: Record<string, string>;
    annotations?: Record<string, string>;
    resourceVersion?: string;
  } & KubeObject;
  spec?: { taints?: Taint[]; unschedulable?: boolean } & KubeObject;
}

export const nodePath = (name: string): string => `/api/v1/nodes/${encodeURIComponent(name)}`;

export function getNode(
  client: KubeClient,
  name: string,
  { signal }: { signal?: AbortSignal | undefined } = {},
): Promise<KubeNode> {
  return client.get(nodePath(name), { signal }) as Promise<KubeNode>;
}

export function updateNode(
  client: KubeClient,
  node: KubeNode,
  { signal }: { signal?: AbortSignal | undefined } = {},
): Promise<KubeNode> {
  return client.update(nodePath(node.metadata.name), node, { signal }) as Promise<KubeNode>;
}
