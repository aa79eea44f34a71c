// What the checks read about one node, whichever way it is read (this node's own state, or another node's
// API), and reading it from several nodes at once: as upstream's one-to-many calls, a node that fails
// counts as `<node>: <error>`, Go's NodeError, and any failure fails the check.
import type { MachineStage } from '../../../resources/runtime/machine-status.js';
import { errorText } from './error-text.js';
import { multiError } from './go-format.js';

/** The EPHEMERAL volume's id, its partition label (upstream's constants.EphemeralPartitionLabel). */
export const EPHEMERAL_VOLUME_ID = 'EPHEMERAL';

/**
 * The kubelet's static pod statuses (upstream's k8s.StaticPodStatus), named by kind alone: a control plane
 * whose kubelet reports none (or a node without their controller) simply lists none.
 */
export const STATIC_POD_STATUSES = {
  namespace: 'k8s',
  type: 'StaticPodStatuses.kubernetes.talos.dev',
} as const;

/** ServiceFact is a service as ServiceList reports it: its events' states and its health. */
export interface ServiceFact {
  readonly events: readonly { readonly state: string; readonly msg: string }[];
  readonly healthy: boolean;
}

/** EtcdMemberFact is one member as EtcdMemberList reports it. */
export interface EtcdMemberFact {
  readonly id: string;
  readonly hostname: string;
  readonly peerURLs: readonly string[];
  readonly isLearner: boolean;
}

/** EphemeralFact is the EPHEMERAL volume's status. */
export interface EphemeralFact {
  readonly location: string;
  readonly size: number;
}

/** NodeFacts reads one node; every read rejects with what went wrong (a gRPC status when it has one). */
export interface NodeFacts {
  /** the node as the request named it */
  readonly node: string;
  /** undefined when the node runs no such service */
  service(id: string, signal: AbortSignal): Promise<ServiceFact | undefined>;
  /** the cluster's members as this node's etcd sees them */
  etcdMembers(signal: AbortSignal): Promise<readonly EtcdMemberFact[]>;
  /** Version: resolves once the node's API answers, saying whether it runs in a container */
  platform(signal: AbortSignal): Promise<{ readonly container: boolean }>;
  /** MemTotal in KiB */
  memTotalKiB(signal: AbortSignal): Promise<number>;
  ephemeral(signal: AbortSignal): Promise<EphemeralFact>;
  /** the messages of the node's active diagnostics */
  diagnostics(signal: AbortSignal): Promise<readonly string[]>;
  machineStage(signal: AbortSignal): Promise<MachineStage>;
  /** the ids (`namespace/name`) of the static pods the node's kubelet reports (StaticPodStatus) */
  staticPods(signal: AbortSignal): Promise<readonly string[]>;
}

export interface Gathered<T> {
  /** in the order the nodes were given */
  readonly answers: readonly { readonly node: string; readonly value: T }[];
  /** `<node>: <error>` per failed node */
  readonly failures: readonly string[];
}

/** gather reads every node at once; none is skipped because another failed. */
export async function gather<T>(
  nodes: readonly NodeFacts[],
  read: (n: NodeFacts) => Promise<T>,
): Promise<Gathered<T>> {
  const settled = await Promise.allSettled(nodes.map(read));
  const answers: { node: string; value: T }[] = [];
  const failures: string[] = [];
  settled.forEach((s, i) => {
    const node = nodes[i]!.node;
    if (s.status === 'fulfilled') answers.push({ node, value: s.value });
    else failures.push(`${node}: ${errorText(s.reason)}`);
  });
  return { answers, failures };
}

/** failuresText is the client's view of failed nodes: a multi-error, or undefined when none failed. */
export const failuresText = (g: Gathered<unknown>): string | undefined => multiError(g.failures);
