// What the control plane's three static pods share, as upstream's ControlPlaneStaticPodController builds
// them (in the order its JSON has them): labels and annotations, the environment, requests and limits
// with GOMEMLIMIT, host path volumes and their mounts, the security contexts, HTTPS probes and (Keel's)
// the termination message policy.
import type { ExtraVolume, Resources } from '../../../resources/k8s/index.js';
import { type ControlPlaneComponent, RUN_AS } from '../static-pod-paths.js';
import { quantityValue } from './quantity.js';

/** upstream's copy of Kubernetes' scheduling.SystemCriticalPriority */
export const SYSTEM_CRITICAL_PRIORITY = 2_000_000_000;
/** the share of the memory limit Go's garbage collector aims under */
export const GO_GC_MEM_LIMIT_PERCENTAGE = 95;
/** the app.kubernetes.io/managed-by label: the OS's name, as upstream's version.Name */
export const MANAGED_BY = 'Keel';

export const ANNOTATION_SECRETS_VERSION = 'talos.dev/secrets-version';
export const ANNOTATION_CONFIG_VERSION = 'talos.dev/config-version';
export const ANNOTATION_CONFIG_FILE_VERSION = 'talos.dev/config-file-version';

export type Obj = Record<string, unknown>;

export const labelsOf = (id: ControlPlaneComponent, version: string): Record<string, string> => ({
  tier: 'control-plane',
  'k8s-app': id,
  component: id,
  'app.kubernetes.io/name': id,
  'app.kubernetes.io/version': version,
  'app.kubernetes.io/component': 'control-plane',
  'app.kubernetes.io/managed-by': MANAGED_BY,
});

/** the pod's own IP, then the user's variables sorted, `$` doubled so Kubernetes does not expand it */
export function envOf(user: Readonly<Record<string, string>>, resources: Obj): Obj[] {
  const env: Obj[] = [{ name: 'POD_IP', valueFrom: { fieldRef: { fieldPath: 'status.podIP' } } }];
  for (const k of Object.keys(user).sort()) env.push({ name: k, value: user[k]!.replaceAll('$', '$$$$') });
  const memory = ((resources.limits ?? {}) as Record<string, string>).memory;
  const bytes = memory ? quantityValue(memory, 'memory limit') : 0;
  if (bytes > 0)
    env.push({ name: 'GOMEMLIMIT', value: String(Math.trunc((bytes * GO_GC_MEM_LIMIT_PERCENTAGE) / 100)) });
  return env;
}

/** requests: the defaults unless configured; limits only as configured (an empty map is left out) */
export function podResources(r: Resources, defaultCPU: string, defaultMemory: string): Obj {
  const requests: Record<string, string> = { cpu: defaultCPU, memory: defaultMemory };
  const limits: Record<string, string> = {};
  for (const [name, what] of [
    ['cpu', 'CPU'],
    ['memory', 'memory'],
  ] as const) {
    const req = r.requests[name];
    if (req) {
      quantityValue(req, `${what} request`);
      requests[name] = req;
    }
    const lim = r.limits?.[name];
    if (lim) {
      quantityValue(lim, `${what} limit`);
      limits[name] = lim;
    }
  }
  return Object.keys(limits).length ? { limits, requests } : { requests };
}

export const hostPathVolume = (name: string, path: string): Obj => ({ name, hostPath: { path } });
export const mount = (name: string, mountPath: string, readOnly: boolean): Obj =>
  readOnly ? { name, readOnly, mountPath } : { name, mountPath };
export const extraVolumes = (vs: readonly ExtraVolume[]): Obj[] =>
  vs.map((v) => hostPathVolume(v.name, v.hostPath));
export const extraMounts = (vs: readonly ExtraVolume[]): Obj[] =>
  vs.map((v) => mount(v.name, v.mountPath, v.readonly));

/** no privilege escalation, every capability dropped (some added back), the runtime's seccomp profile */
export const containerSecurity = (add: readonly string[] = []): Obj => ({
  capabilities: add.length ? { add: [...add], drop: ['ALL'] } : { drop: ['ALL'] },
  allowPrivilegeEscalation: false,
  seccompProfile: { type: 'RuntimeDefault' },
});

/** the component's own non-root user and group */
export const podSecurity = (id: ControlPlaneComponent): Obj => ({
  runAsUser: RUN_AS[id],
  runAsGroup: RUN_AS[id],
  runAsNonRoot: true,
});

/**
 * Keel's allowance for the controller manager and scheduler to start: five minutes of probes 5 s apart,
 * each waiting 5 s. Upstream gives the controller manager one minute and the scheduler the defaults'
 * 30 s with 1 s probes, which a slow machine (two emulated CPUs still importing the layer's images)
 * misses: the kubelet then kills a healthy component mid-start, again and again. A started component is
 * past its startup probe, so a real machine loses nothing.
 */
export const SLOW_START: Obj = { periodSeconds: 5, failureThreshold: 60, timeoutSeconds: 5 };

/** upstream's liveness timeout for the controller manager; Keel's for the scheduler too (see SLOW_START) */
export const LIVENESS_TIMEOUT: Obj = { timeoutSeconds: 15 };

/**
 * Keel's addition (upstream sets none, so the kubelet's default `File` applies): a component that exits
 * with an error and wrote no termination message (all of them: they only log), on bad arguments say,
 * gets the tail of its log as its terminated state's message, so the pod's status (and StaticPodStatus)
 * says why without reading the container's log.
 */
export const TERMINATION_MESSAGE_POLICY = 'FallbackToLogsOnError';

export const httpsProbe = (path: string, port: number, extra: Obj = {}): Obj => ({
  httpGet: { path, port, host: 'localhost', scheme: 'HTTPS' },
  ...extra,
});

export interface PodParts {
  readonly id: ControlPlaneComponent;
  readonly version: string;
  readonly annotations: Record<string, string>;
  readonly container: Obj;
  readonly volumes: Obj[];
}

/** staticPod assembles a control plane pod: kube-system, host network, system-cluster-critical. */
export const staticPod = (p: PodParts): Obj => ({
  kind: 'Pod',
  apiVersion: 'v1',
  metadata: {
    name: p.id,
    namespace: 'kube-system',
    creationTimestamp: null,
    labels: labelsOf(p.id, p.version),
    annotations: p.annotations,
  },
  spec: {
    volumes: p.volumes,
    containers: [p.container],
    hostNetwork: true,
    securityContext: podSecurity(p.id),
    priorityClassName: 'system-cluster-critical',
    priority: SYSTEM_CRITICAL_PRIORITY,
  },
  status: {},
});
