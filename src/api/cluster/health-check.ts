// ClusterService.HealthCheck, as upstream's server runs it: on a control plane only, for the nodes the
// request names (else the cluster's Kubernetes nodes), the default checks one after another until the
// wait_timeout, each state change streamed as a HealthCheckProgress message. The stream ends when every
// check holds; when the time is up it fails with DeadlineExceeded, as upstream's context does.
import { accessors, adminKubeconfigPlan, type Config, mintAdminKubeconfig } from '../../config/index.js';
import { ApiError } from '../errors.js';
import { type ApiMessage, type Handler, serverStreamHandler } from '../handlers.js';
import { type CheckEnv, DEFAULT_CLUSTER_CHECKS } from './checks/default.js';
import {
  allNodes,
  type ClusterInfo,
  clusterFromKubernetes,
  discoveredMessage,
  type NodeInfo,
  requestedCluster,
} from './cluster-info.js';
import { pollingCondition } from './condition.js';
import type { ClusterDeps } from './deps.js';
import { errorText } from './error-text.js';
import { DEADLINE } from './go-format.js';
import { type KubeReads, kubeReads } from './kube.js';
import { cniName, type LocalNodeDeps, localAddresses, localNode } from './local-node.js';
import type { NodeFacts } from './node-facts.js';
import { forwardedPeers, type Peers, unreachableNode } from './peers.js';
import { remoteNode } from './remote-node.js';
import { progressReporter } from './reporter.js';
import { waitForConditions } from './wait.js';

const API_NAME = 'cluster health check';

/** requireControlPlane refuses as upstream's CheckControlplane: only a control plane runs the checks. */
function requireControlPlane(cfg: Config | undefined): Config {
  if (!cfg) throw new ApiError('unimplemented', `machine type is not set, cannot use ${API_NAME} API`);
  const type = accessors(cfg).machineType();
  if (type !== 'controlplane' && type !== 'init')
    throw new ApiError('unimplemented', `${API_NAME} is only available on control plane nodes`);
  return cfg;
}

/** the longest wait a timer takes (2³¹ − 1 ms, about 24.8 days) */
const MAX_WAIT_MS = 2 ** 31 - 1;

/** durationMs reads a google.protobuf.Duration as proto-loader decodes it (seconds as a string). */
export function durationMs(d: unknown): number {
  const { seconds, nanos } = (d ?? {}) as { seconds?: unknown; nanos?: unknown };
  return Number(seconds ?? 0) * 1000 + Number(nanos ?? 0) / 1e6;
}

/** discover falls back to the Kubernetes nodes when the request names none (Keel has no discovery service). */
async function discover(kube: KubeReads, signal: AbortSignal): Promise<ClusterInfo> {
  try {
    return clusterFromKubernetes(await kube.nodes(signal));
  } catch (e) {
    if (signal.aborted) throw e;
    throw new ApiError(
      'unavailable',
      `no nodes given (--control-plane-nodes, --worker-nodes) and none discovered from Kubernetes: ${errorText(e)}`,
      { cause: e },
    );
  }
}

/** memoize keeps the first successful result of an async function; a failure is retried next time. */
function memoize<T>(fn: (signal: AbortSignal) => Promise<T>): (signal: AbortSignal) => Promise<T> {
  let kept: Promise<T> | undefined;
  return (signal) => {
    kept ??= fn(signal).catch((e: unknown) => {
      kept = undefined;
      throw e;
    });
    return kept;
  };
}

/**
 * factsSource says, once per node, where its facts are read: this node's own state, the other node's API,
 * or nowhere (a node this one has no certificate to call is reported so, never taken for healthy).
 */
function factsSource(
  isLocal: (node: string) => boolean,
  local: LocalNodeDeps,
  peers: Peers | undefined,
): (n: NodeInfo) => NodeFacts {
  const facts = new Map<string, NodeFacts>();
  return (n) => {
    let f = facts.get(n.internalIP);
    if (!f) {
      if (isLocal(n.internalIP)) f = localNode(n.internalIP, local);
      else f = peers ? remoteNode(n.internalIP, peers.caller) : unreachableNode(n.internalIP);
      facts.set(n.internalIP, f);
    }
    return f;
  };
}

export function healthCheckHandler(deps: ClusterDeps): Handler {
  const checks = deps.checks ?? DEFAULT_CLUSTER_CHECKS;
  const openPeers = deps.peers ?? forwardedPeers(deps.state);
  return serverStreamHandler(async (req, send, ctx) => {
    const cfg = requireControlPlane(deps.config.active());
    // a timer waits at most MAX_WAIT_MS and only whole milliseconds; a wait_timeout of years or of
    // fractions is a client's to send, not a reason for the timer to throw
    const timeoutMs = Math.min(Math.ceil(durationMs(req.wait_timeout)), MAX_WAIT_MS);
    const deadline = timeoutMs > 0 ? AbortSignal.timeout(timeoutMs) : AbortSignal.abort();
    const signal = AbortSignal.any([ctx.signal, deadline]);
    // the admin kubeconfig as the Kubeconfig RPC makes it: to the cluster endpoint, unless forced
    const forceEndpoint = String((req.cluster_info as ApiMessage | undefined)?.force_endpoint ?? '');
    const kube = kubeReads({
      kubeconfig: memoize((s) => mintAdminKubeconfig(adminKubeconfigPlan(cfg), { signal: s })),
      ...(forceEndpoint ? { forceEndpoint } : {}),
    });
    let peers: Peers | undefined;
    try {
      const cluster = requestedCluster(req.cluster_info) ?? (await discover(kube, signal));
      await send({ message: discoveredMessage(cluster) });
      const isLocal = await localAddresses(deps.state, signal);
      const self = allNodes(cluster).find((n) => isLocal(n.internalIP))?.internalIP ?? '';
      const others = allNodes(cluster).some((n) => !isLocal(n.internalIP));
      peers = others ? await openPeers({ roles: ctx.caller.roles, self }, signal) : undefined;
      const local = { ...deps, container: deps.config.validationMode === 'container' };
      const factsOf = factsSource(isLocal, local, peers);
      const env: CheckEnv = {
        cluster,
        factsOf,
        local: localNode(self, local),
        cniName: (s) => cniName(deps.state, s),
        kube,
      };
      await waitForConditions(
        checks.map((c) => () => pollingCondition(c.description, (s) => c.assert(env, s), c.intervalMs)),
        progressReporter((message) => send({ message })),
        signal,
      );
    } catch (e) {
      // the time is up (not the client gone): upstream's context error, which gRPC sends as DeadlineExceeded
      if (deadline.aborted && !ctx.signal.aborted)
        throw new ApiError('deadline-exceeded', DEADLINE, { cause: e });
      throw e;
    } finally {
      kube.close();
      peers?.close();
    }
  });
}
