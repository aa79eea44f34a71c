// The checks on Kubernetes pods: "all control plane static pods to be running" (the kubelet's
// StaticPodStatuses on each control plane), the pod half of "all control plane components to be ready",
// and the readiness of kube-proxy's and CoreDNS's pods (upstream's K8sControlPlaneStaticPods,
// K8sFullControlPlaneAssertion and K8sPodReadyAssertion).
import { plainList } from '../go-format.js';
import { conditionStatus, type KubeDaemonSet, type KubeDeployment, type KubePod } from '../kube-objects.js';
import { compareStrings } from './order.js';

/** The control plane's components, in the order upstream checks their pods. */
export const CONTROL_PLANE_APPS = ['kube-apiserver', 'kube-scheduler', 'kube-controller-manager'] as const;

/** The static pods each control plane must run, as prefixes of their StaticPodStatus ids (`namespace/name`). */
export const STATIC_PODS = [
  'kube-system/kube-apiserver',
  'kube-system/kube-controller-manager',
  'kube-system/kube-scheduler',
] as const;

/** missingStaticPods names the control plane static pods a node's kubelet does not report, sorted. */
export function missingStaticPods(node: string, ids: readonly string[]): string | undefined {
  const missing = STATIC_PODS.filter((s) => !ids.some((id) => id.startsWith(s)));
  if (missing.length === 0) return undefined;
  return `missing static pods on node ${node}: ${plainList([...missing].sort(compareStrings))}`;
}

/** daemonSetsScheduled wants every (pre-0.9 self-hosted) control plane daemon set fully scheduled and ready. */
export function daemonSetsScheduled(sets: readonly KubeDaemonSet[]): string | undefined {
  for (const ds of sets) {
    const name = ds.metadata?.name ?? '';
    const s = ds.status ?? {};
    const desired = s.desiredNumberScheduled ?? 0;
    if ((s.currentNumberScheduled ?? 0) !== desired)
      return `expected current number scheduled for ${name} to be ${desired}, got ${s.currentNumberScheduled ?? 0}`;
    if ((s.numberAvailable ?? 0) !== desired)
      return `expected number available for ${name} to be ${desired}, got ${s.numberAvailable ?? 0}`;
    if ((s.numberReady ?? 0) !== desired)
      return `expected number ready for ${name} to be ${desired}, got ${s.numberReady ?? 0}`;
  }
  return undefined;
}

const isReady = (p: KubePod) => conditionStatus(p.status?.conditions, 'Ready') === 'True';

/**
 * controlPlanePodsReady wants one pod of the component per labelled control plane node (checkpoints left
 * out), none with a Ready condition that is not True.
 */
export function controlPlanePodsReady(
  app: string,
  pods: readonly KubePod[],
  nodes: number,
): string | undefined {
  const real = pods.filter(
    (p) => !Object.hasOwn(p.metadata?.annotations ?? {}, 'checkpointer.alpha.coreos.com/checkpoint-of'),
  );
  if (real.length !== nodes) return `expected number of pods for ${app} to be ${nodes}, got ${real.length}`;
  const notReady = real
    .filter((p) => conditionStatus(p.status?.conditions, 'Ready') !== undefined && !isReady(p))
    .map((p) => p.metadata?.name ?? '');
  return notReady.length > 0 ? `some pods are not ready for ${app}: ${plainList(notReady)}` : undefined;
}

/**
 * podsReady is K8sPodReadyAssertion: among the live pods (not deleted, not failed, not every container
 * terminated) at least one is ready, none is not, and the ready ones are as many as the replicas.
 */
export function podsReady(
  pods: readonly KubePod[],
  replicas: number,
  namespace: string,
  selector: string,
): string | undefined {
  const where = `namespace ${JSON.stringify(namespace)} and label selector ${JSON.stringify(selector)}`;
  if (pods.length === 0) return `no pods found for ${where}`;
  const live = pods.filter(
    (p) =>
      p.metadata?.deletionTimestamp === undefined &&
      p.status?.phase !== 'Failed' &&
      // `kubectl get pods` shows these as Completed (a kubelet shut down gracefully leaves them Running)
      !(p.status?.containerStatuses ?? []).every((c) => c.state?.terminated !== undefined),
  );
  const ready = live.filter(isReady).map((p) => p.metadata?.name ?? '');
  const notReady = live.filter((p) => !isReady(p)).map((p) => p.metadata?.name ?? '');
  if (ready.length === 0) return `no ready pods found for ${where}`;
  if (notReady.length > 0) return `some pods are not ready: ${plainList(notReady)}`;
  if (ready.length !== replicas) return `expected ${replicas} ready pods, got ${ready.length}`;
  return undefined;
}

/** daemonSetReplicas is DaemonSetPresent: the first matching set's desired count, undefined when none. */
export const daemonSetReplicas = (sets: readonly KubeDaemonSet[]): number | undefined =>
  sets.length === 0 ? undefined : (sets[0]!.status?.desiredNumberScheduled ?? 0);

/** deploymentReplicas is DeploymentPresent: the first matching deployment's replicas, undefined when none. */
export const deploymentReplicas = (deployments: readonly KubeDeployment[]): number | undefined =>
  deployments.length === 0 ? undefined : (deployments[0]!.spec?.replicas ?? 0);
