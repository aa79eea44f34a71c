// The nodes a health check is about: those the request names (talosctl's --control-plane-nodes and
// --worker-nodes), else the cluster's Kubernetes nodes, as upstream's server falls back to them when its
// discovery service knows no members (Keel has no discovery service).
import { isIP } from 'node:net';
import { ApiError } from '../errors.js';
import { quoteList } from './go-format.js';
import { type KubeNode, nodeAddresses } from './kube-objects.js';

/** NodeInfo is a node by its internal IP, with every IP it is known by (upstream's cluster.NodeInfo). */
export interface NodeInfo {
  readonly internalIP: string;
  readonly ips: readonly string[];
}

/** ClusterInfo is the nodes by type; the server side knows control planes and workers (init is folded in). */
export interface ClusterInfo {
  readonly controlPlanes: readonly NodeInfo[];
  readonly workers: readonly NodeInfo[];
}

export const allNodes = (c: ClusterInfo): NodeInfo[] => [...c.controlPlanes, ...c.workers];

/** The label upstream reads a control plane node by (constants.LabelNodeRoleControlPlane). */
export const LABEL_CONTROL_PLANE = 'node-role.kubernetes.io/control-plane';

/** parseAddr is netip.ParseAddr: an IP literal in its canonical form, or upstream's error words. */
export function parseAddr(s: string): string {
  const family = isIP(s);
  if (family === 4) return s;
  // IPv6 canonical (lowercase, zeros compressed) as netip.Addr prints it, through the URL parser
  if (family === 6) return new URL(`http://[${s}]/`).hostname.slice(1, -1);
  throw new ApiError('invalid-argument', `ParseAddr(${JSON.stringify(s)}): unable to parse IP`);
}

const infoOf = (ip: string): NodeInfo => {
  const a = parseAddr(ip);
  return { internalIP: a, ips: [a] };
};

/** requestedCluster reads the request's cluster_info; undefined when it names no node. */
export function requestedCluster(clusterInfo: unknown): ClusterInfo | undefined {
  const ci = (clusterInfo ?? {}) as { control_plane_nodes?: unknown; worker_nodes?: unknown };
  const list = (v: unknown) => (Array.isArray(v) ? v.map(String) : []);
  const cp = list(ci.control_plane_nodes);
  const workers = list(ci.worker_nodes);
  if (cp.length === 0 && workers.length === 0) return undefined;
  return { controlPlanes: cp.map(infoOf), workers: workers.map(infoOf) };
}

/**
 * clusterFromKubernetes sorts the Kubernetes nodes by the control plane label. A node that reports no
 * internal IP cannot be reached by one and is left out (upstream would carry an invalid address).
 */
export function clusterFromKubernetes(nodes: readonly KubeNode[]): ClusterInfo {
  const controlPlanes: NodeInfo[] = [];
  const workers: NodeInfo[] = [];
  for (const n of nodes) {
    const { internal, ips } = nodeAddresses(n);
    if (!internal) continue;
    const info = { internalIP: internal, ips };
    if (Object.hasOwn(n.metadata?.labels ?? {}, LABEL_CONTROL_PLANE)) controlPlanes.push(info);
    else workers.push(info);
  }
  return { controlPlanes, workers };
}

/** discoveredMessage is the first progress message: `discovered nodes: ["10.5.0.2" "10.5.0.3"]`. */
export const discoveredMessage = (c: ClusterInfo): string =>
  `discovered nodes: ${quoteList(allNodes(c).map((n) => n.internalIP))}`;
