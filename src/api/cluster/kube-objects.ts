// The parts of Kubernetes objects the health checks read (nodes, pods, daemon sets, deployments), as the
// API server sends them in JSON; every field optional, since a list item may lack any of them.

export interface ObjectMeta {
  readonly name?: string;
  readonly namespace?: string;
  readonly labels?: Readonly<Record<string, string>>;
  readonly annotations?: Readonly<Record<string, string>>;
  readonly deletionTimestamp?: string;
}

export interface Condition {
  readonly type?: string;
  readonly status?: string;
}

export interface KubeNode {
  readonly metadata?: ObjectMeta;
  readonly spec?: { readonly unschedulable?: boolean };
  readonly status?: {
    readonly addresses?: readonly { readonly type?: string; readonly address?: string }[];
    readonly conditions?: readonly Condition[];
  };
}

export interface KubePod {
  readonly metadata?: ObjectMeta;
  readonly spec?: { readonly nodeName?: string };
  readonly status?: {
    readonly phase?: string;
    readonly conditions?: readonly Condition[];
    readonly containerStatuses?: readonly { readonly state?: { readonly terminated?: unknown } }[];
  };
}

export interface KubeDaemonSet {
  readonly metadata?: ObjectMeta;
  readonly status?: {
    readonly currentNumberScheduled?: number;
    readonly desiredNumberScheduled?: number;
    readonly numberAvailable?: number;
    readonly numberReady?: number;
  };
}

export interface KubeDeployment {
  readonly metadata?: ObjectMeta;
  readonly spec?: { readonly replicas?: number };
}

/**
 * nodeAddresses reads a node's internal IP and every internal and external IP, in the order it lists
 * them, as upstream's checks build a NodeInfo from a Node (other address types are not IPs).
 */
export function nodeAddresses(n: KubeNode): { internal: string | undefined; ips: string[] } {
  let internal: string | undefined;
  const ips: string[] = [];
  for (const a of n.status?.addresses ?? []) {
    if (a.type === 'InternalIP' && a.address) {
      internal = a.address;
      ips.push(a.address);
    } else if (a.type === 'ExternalIP' && a.address) ips.push(a.address);
  }
  return { internal, ips };
}

/** conditionStatus is the status of the condition of `type`, undefined when the object has none. */
export const conditionStatus = (conditions: readonly Condition[] | undefined, type: string) =>
  conditions?.find((c) => c.type === type)?.status;
