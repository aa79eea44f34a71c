// The checks on Kubernetes nodes: "all k8s nodes to report" (cluster.NodesMatch against the node list),
// "all k8s nodes to report ready", "all k8s nodes to report schedulable", and the node half of "all
// control plane components to be ready" (the control plane label on exactly the control planes).
import { LABEL_CONTROL_PLANE, type NodeInfo } from '../cluster-info.js';
import { plainList, quoteList } from '../go-format.js';
import { conditionStatus, type KubeNode, nodeAddresses } from '../kube-objects.js';
import { compareAddrs } from './order.js';

/** nodeInfoOf is a Node as upstream's checks see it: its internal IP and its internal and external IPs. */
export function nodeInfoOf(n: KubeNode): NodeInfo {
  const { internal, ips } = nodeAddresses(n);
  return { internalIP: internal ?? '', ips };
}

/**
 * nodesMatch is cluster.NodesMatch: each expected node must share an IP with a distinct actual node, and
 * no actual node may be left over.
 */
export function nodesMatch(expected: readonly NodeInfo[], actual: readonly NodeInfo[]): string | undefined {
  const left = [...actual];
  for (const e of expected) {
    const i = left.findIndex((a) => a.ips.some((ip) => e.ips.includes(ip)));
    if (i < 0) return `can't find expected node with IPs ${quoteList(e.ips)}`;
    left.splice(i, 1);
  }
  if (left.length === 0) return undefined;
  return `unexpected nodes with IPs ${quoteList(left.flatMap((n) => n.ips).sort(compareAddrs))}`;
}

/** allNodesReported wants the Kubernetes nodes to be exactly the cluster's nodes. */
export const allNodesReported = (expected: readonly NodeInfo[], nodes: readonly KubeNode[]) =>
  nodesMatch(expected, nodes.map(nodeInfoOf));

/** controlPlaneMembership wants the nodes labelled as control planes to be exactly the control planes. */
export const controlPlaneMembership = (expected: readonly NodeInfo[], nodes: readonly KubeNode[]) =>
  nodesMatch(expected, labelledControlPlanes(nodes).map(nodeInfoOf));

export const labelledControlPlanes = (nodes: readonly KubeNode[]): KubeNode[] =>
  nodes.filter((n) => Object.hasOwn(n.metadata?.labels ?? {}, LABEL_CONTROL_PLANE));

/** nodesReady names the nodes whose Ready condition is not True (a node without one is not counted). */
export function nodesReady(nodes: readonly KubeNode[]): string | undefined {
  const notReady = nodes
    .filter((n) => {
      const s = conditionStatus(n.status?.conditions, 'Ready');
      return s !== undefined && s !== 'True';
    })
    .map((n) => n.metadata?.name ?? '');
  return notReady.length === 0 ? undefined : `some nodes are not ready: ${plainList(notReady)}`;
}

/** nodesSchedulable names the first cordoned node (upstream stops at the first). */
export function nodesSchedulable(nodes: readonly KubeNode[]): string | undefined {
  const cordoned = nodes.find((n) => n.spec?.unschedulable === true);
  return cordoned
    ? `some nodes are not schedulable: ${plainList([cordoned.metadata?.name ?? ''])}`
    : undefined;
}
