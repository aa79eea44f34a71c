// The checks of a cluster health check, in upstream's order (check.DefaultClusterChecks: the pre-boot
// checks, the Kubernetes components, then nodes, kube-proxy, CoreDNS and scheduling), each with upstream's
// description and poll interval: reads of the nodes and of Kubernetes, then a pure assertion.
import { status } from '@grpc/grpc-js';
import { allNodes, type ClusterInfo, type NodeInfo } from '../cluster-info.js';
import { OK, SKIP, type Verdict, verdictOf } from '../condition.js';
import { errorText, grpcCodeOf } from '../error-text.js';
import type { KubeReads } from '../kube.js';
import { failuresText, gather, type NodeFacts } from '../node-facts.js';
import { allBooted, noDiagnostics } from './boot.js';
import { etcdConsistent, etcdMembersAreControlPlanes } from './etcd.js';
import {
  allNodesReported,
  controlPlaneMembership,
  labelledControlPlanes,
  nodesReady,
  nodesSchedulable,
} from './kubernetes-nodes.js';
import {
  CONTROL_PLANE_APPS,
  controlPlanePodsReady,
  daemonSetReplicas,
  daemonSetsScheduled,
  deploymentReplicas,
  missingStaticPods,
  podsReady,
} from './kubernetes-pods.js';
import { compareStrings } from './order.js';
import { serviceHealth } from './services.js';
import { type DiskFact, diskSizes, memorySizes } from './sizes.js';

/** CheckEnv is what the checks read through. */
export interface CheckEnv {
  readonly cluster: ClusterInfo;
  /** the facts of a node the request names */
  factsOf(node: NodeInfo): NodeFacts;
  /** this node: the one upstream's client reaches when it names none */
  readonly local: NodeFacts;
  /** the CNI the bootstrap manifests install on this node's cluster (`none` when it is the user's) */
  cniName(signal: AbortSignal): Promise<string>;
  readonly kube: KubeReads;
}

export interface ClusterCheck {
  /** the words after "waiting for" */
  readonly description: string;
  readonly intervalMs: number;
  assert(env: CheckEnv, signal: AbortSignal): Promise<Verdict>;
}

const INTERVAL_MS = 5_000;
/** listing the nodes first also builds the client, so its tries get longer (upstream's 30 s) */
const NODES_REPORT_INTERVAL_MS = 30_000;
const KUBE_SYSTEM = 'kube-system';

const fail = (reason: string): Verdict => ({ kind: 'fail', reason });
const controlPlanes = (env: CheckEnv) => env.cluster.controlPlanes.map((n) => env.factsOf(n));
const everyNode = (env: CheckEnv) => allNodes(env.cluster).map((n) => env.factsOf(n));
const cniDisabled = async (env: CheckEnv, signal: AbortSignal) => (await env.cniName(signal)) === 'none';

const check = (
  description: string,
  assert: ClusterCheck['assert'],
  intervalMs = INTERVAL_MS,
): ClusterCheck => ({
  description,
  intervalMs,
  assert,
});

const serviceCheck = (description: string, service: string) =>
  check(description, async (env, signal) =>
    verdictOf(
      serviceHealth(
        service,
        env.cluster.controlPlanes.length,
        await gather(controlPlanes(env), (n) => n.service(service, signal)),
      ),
    ),
  );

/**
 * metalNodes asks every node's platform (Version), as upstream's getNonContainerNodes: the size checks
 * leave out container nodes, whose memory and disks are their host's.
 */
async function metalNodes(env: CheckEnv, signal: AbortSignal): Promise<NodeFacts[] | string> {
  const nodes = everyNode(env);
  const versions = await gather(nodes, (n) => n.platform(signal));
  const failed = failuresText(versions);
  if (failed) return `error getting version: ${failed}`;
  const metal = new Set(versions.answers.filter((a) => !a.value.container).map((a) => a.node));
  return nodes.filter((n) => metal.has(n.node));
}

const roleOf = (cluster: ClusterInfo, node: string) =>
  cluster.controlPlanes.some((n) => n.internalIP === node) ? ('controlplane' as const) : ('worker' as const);

const memoryCheck = check('all nodes memory sizes', async (env, signal) => {
  const nodes = await metalNodes(env, signal);
  if (typeof nodes === 'string') return fail(nodes);
  const mem = await gather(nodes, (n) => n.memTotalKiB(signal));
  const failed = failuresText(mem);
  if (failed) return fail(`error getting nodes memory: ${failed}`);
  const facts = mem.answers.map((a) => ({
    node: a.node,
    role: roleOf(env.cluster, a.node),
    memTotalKiB: a.value,
  }));
  return verdictOf(memorySizes(facts));
});

const diskCheck = check('all nodes disk sizes', async (env, signal) => {
  const nodes = await metalNodes(env, signal);
  if (typeof nodes === 'string') return fail(nodes);
  const facts: DiskFact[] = [];
  for (const n of [...nodes].sort((a, b) => compareStrings(a.node, b.node))) {
    try {
      facts.push({ node: n.node, kind: 'read', volume: await n.ephemeral(signal) });
    } catch (e) {
      // a node whose API does not serve the resource (upstream: an older Talos) is not judged
      if (grpcCodeOf(e) === status.PERMISSION_DENIED) return SKIP;
      facts.push({ node: n.node, kind: 'failed', error: errorText(e) });
    }
  }
  return verdictOf(diskSizes(facts));
});

/** staticPodsCheck asks each control plane for the static pods its kubelet reports, in order. */
const staticPodsCheck = check('all control plane static pods to be running', async (env, signal) => {
  for (const cp of env.cluster.controlPlanes) {
    let ids: readonly string[];
    try {
      ids = await env.factsOf(cp).staticPods(signal);
    } catch (e) {
      // a node whose API has no COSI (upstream: a Talos before 1.2) is not judged
      if (grpcCodeOf(e) === status.UNIMPLEMENTED) return OK;
      return fail(`error listing static pods on node ${cp.internalIP}: ${errorText(e)}`);
    }
    const missing = missingStaticPods(cp.internalIP, ids);
    if (missing) return fail(missing);
  }
  return OK;
});

const fullControlPlaneCheck = check('all control plane components to be ready', async (env, signal) => {
  const nodes = await env.kube.nodes(signal);
  const membership = controlPlaneMembership(env.cluster.controlPlanes, nodes);
  if (membership) return fail(membership);
  const sets = await env.kube.daemonSets(
    KUBE_SYSTEM,
    `k8s-app in (${['kube-apiserver', 'kube-scheduler', 'kube-controller-manager'].join(',')})`,
    signal,
  );
  const scheduled = daemonSetsScheduled(sets);
  if (scheduled) return fail(scheduled);
  const labelled = labelledControlPlanes(nodes).length;
  for (const app of CONTROL_PLANE_APPS) {
    const pods = await env.kube.pods(KUBE_SYSTEM, `k8s-app = ${app}`, signal).catch((e: unknown) => {
      throw new Error(`error listing pods for app ${app}: ${errorText(e)}`);
    });
    const ready = controlPlanePodsReady(app, pods, labelled);
    if (ready) return fail(ready);
  }
  return OK;
});

const KUBE_PROXY = 'k8s-app=kube-proxy';
const KUBE_DNS = 'k8s-app=kube-dns';

export const DEFAULT_CLUSTER_CHECKS: readonly ClusterCheck[] = [
  // before the boot sequence ends (upstream's PreBootSequenceChecks)
  serviceCheck('etcd to be healthy', 'etcd'),
  check('etcd members to be consistent across nodes', async (env, signal) =>
    verdictOf(etcdConsistent(await gather(controlPlanes(env), (n) => n.etcdMembers(signal)))),
  ),
  // the members as this node's etcd lists them
  check('etcd members to be control plane nodes', async (env, signal) =>
    verdictOf(etcdMembersAreControlPlanes(await env.local.etcdMembers(signal), env.cluster.controlPlanes)),
  ),
  check('apid to be ready', async (env, signal) =>
    verdictOf(failuresText(await gather(everyNode(env), (n) => n.platform(signal)))),
  ),
  memoryCheck,
  diskCheck,
  check('no diagnostics', async (env, signal) =>
    verdictOf(noDiagnostics(await gather(everyNode(env), (n) => n.diagnostics(signal)))),
  ),
  serviceCheck('kubelet to be healthy', 'kubelet'),
  check('all nodes to finish boot sequence', async (env, signal) =>
    verdictOf(allBooted(await gather(everyNode(env), (n) => n.machineStage(signal)))),
  ),
  // the Kubernetes components (upstream's K8sComponentsReadinessChecks)
  check(
    'all k8s nodes to report',
    async (env, signal) => verdictOf(allNodesReported(allNodes(env.cluster), await env.kube.nodes(signal))),
    NODES_REPORT_INTERVAL_MS,
  ),
  staticPodsCheck,
  fullControlPlaneCheck,
  // then the nodes and the add-ons
  check('all k8s nodes to report ready', async (env, signal) => {
    if (await cniDisabled(env, signal)) return SKIP;
    return verdictOf(nodesReady(await env.kube.nodes(signal)));
  }),
  check('kube-proxy to report ready', async (env, signal) => {
    const replicas = daemonSetReplicas(await env.kube.daemonSets(KUBE_SYSTEM, KUBE_PROXY, signal));
    if (replicas === undefined) return SKIP;
    return verdictOf(
      podsReady(await env.kube.pods(KUBE_SYSTEM, KUBE_PROXY, signal), replicas, KUBE_SYSTEM, KUBE_PROXY),
    );
  }),
  check('coredns to report ready', async (env, signal) => {
    if (await cniDisabled(env, signal)) return SKIP;
    const replicas = deploymentReplicas(await env.kube.deployments(KUBE_SYSTEM, KUBE_DNS, signal));
    if (replicas === undefined) return SKIP;
    return verdictOf(
      podsReady(await env.kube.pods(KUBE_SYSTEM, KUBE_DNS, signal), replicas, KUBE_SYSTEM, KUBE_DNS),
    );
  }),
  check('all k8s nodes to report schedulable', async (env, signal) =>
    verdictOf(nodesSchedulable(await env.kube.nodes(signal))),
  ),
];
