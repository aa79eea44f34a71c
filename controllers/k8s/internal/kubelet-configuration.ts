// The kubelet's KubeletConfiguration (kubelet.config.k8s.io/v1beta1) as upstream builds it: the user's
// extraConfig first, then the fields Keel always sets (auth, cgroups, static pods, the CRI socket), then
// defaults where the user left a field unset. Only what is set is written; the kubelet defaults the rest.
import type { KubeletConfigSpec } from '../../../resources/k8s/index.js';
import { type KubeletPaths, kubeletFiles, NODE_KUBELET_PATHS } from '../kubelet-paths.js';
import { K8sConfigError } from './errors.js';

export const KUBELET_PORT = 10250;
export const KUBELET_OOM_SCORE_ADJ = -450;
export const LABEL_NODE_ROLE_CONTROL_PLANE = 'node-role.kubernetes.io/control-plane';

/** the fields extraConfig may not set (upstream's kubelet.ProtectedConfigurationFields) */
export const PROTECTED_CONFIGURATION_FIELDS = [
  'apiVersion',
  'authentication',
  'authorization',
  'cgroupRoot',
  'kind',
  'kubeletCgroups',
  'port',
  'protectKernelDefaults',
  'resolvConf',
  'rotateCertificates',
  'systemCgroups',
  'staticPodPath',
  'seccompDefault',
] as const;

export interface KubeletConfigurationOptions {
  readonly controlPlane: boolean;
  /** a container node cannot change the kernel's parameters: the kubelet must not insist on them */
  readonly container: boolean;
  /** where the kubelet's files are; default a node's */
  readonly paths?: KubeletPaths;
}

const isRecord = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

/** kubeletConfiguration refuses an extraConfig that sets a protected field, naming every one it sets. */
export function kubeletConfiguration(
  cfg: KubeletConfigSpec,
  opts: KubeletConfigurationOptions,
): Record<string, unknown> {
  const extra = structuredClone(cfg.extraConfig ?? {});
  const protectedSet = PROTECTED_CONFIGURATION_FIELDS.filter((f) => f in extra);
  if (protectedSet.length)
    throw new K8sConfigError(
      protectedSet.map((f) => `machine.kubelet.extraConfig: field "${f}" can't be overridden`).join('; '),
    );
  const paths = opts.paths ?? NODE_KUBELET_PATHS;
  const files = kubeletFiles(paths);
  const c: Record<string, unknown> = {
    ...extra,
    apiVersion: 'kubelet.config.k8s.io/v1beta1',
    kind: 'KubeletConfiguration',
  };
  // always set
  if (cfg.disableManifestsDirectory) delete c.staticPodPath;
  else c.staticPodPath = files.manifests;
  c.staticPodURL = cfg.staticPodListURL;
  c.port = KUBELET_PORT;
  const authentication = {
    x509: { clientCAFile: files.caCert },
    webhook: { enabled: true },
    anonymous: { enabled: false },
  };
  const authorization = { mode: 'Webhook' };
  c.cgroupRoot = '/';
  c.systemCgroups = '/system';
  c.kubeletCgroups = '/podruntime/kubelet';
  c.rotateCertificates = true;
  c.protectKernelDefaults = !opts.container;
  c.containerRuntimeEndpoint = `unix://${paths.criSocket}`;
  // the kubelet's own default is a node's: named only where they differ (a container node)
  if (paths.podLogs !== NODE_KUBELET_PATHS.podLogs) c.podLogsDir = paths.podLogs;
  if (cfg.defaultRuntimeSeccompEnabled) c.seccompDefault = true;
  if (cfg.enableFSQuotaMonitoring) {
    const gates = isRecord(c.featureGates) ? c.featureGates : {};
    if (!('LocalStorageCapacityIsolationFSQuotaMonitoring' in gates))
      c.featureGates = { ...gates, LocalStorageCapacityIsolationFSQuotaMonitoring: true };
  }
  if (cfg.skipNodeRegistration) {
    authentication.webhook.enabled = false;
    authorization.mode = 'AlwaysAllow';
  } else if (opts.controlPlane && !cfg.allowSchedulingOnControlPlane) {
    // registered tainted, so nothing is scheduled before the node's taints are applied
    const taints = Array.isArray(c.registerWithTaints) ? (c.registerWithTaints as unknown[]) : [];
    const tainted = taints.some((t) => isRecord(t) && t.key === LABEL_NODE_ROLE_CONTROL_PLANE);
    if (!tainted && !cfg.extraArgs?.['register-with-taints'])
      c.registerWithTaints = [...taints, { key: LABEL_NODE_ROLE_CONTROL_PLANE, effect: 'NoSchedule' }];
  }
  c.authentication = authentication;
  c.authorization = authorization;
  // defaults where the user set nothing
  c.address ??= '0.0.0.0';
  c.oomScoreAdj ??= KUBELET_OOM_SCORE_ADJ;
  if (!c.clusterDomain) c.clusterDomain = cfg.clusterDomain;
  if (!Array.isArray(c.clusterDNS) || c.clusterDNS.length === 0) c.clusterDNS = [...cfg.clusterDNS];
  c.serializeImagePulls ??= false;
  c.failSwapOn ??= false;
  if (!isRecord(c.systemReserved) || Object.keys(c.systemReserved).length === 0)
    c.systemReserved = {
      cpu: '50m',
      pid: '100',
      'ephemeral-storage': '256Mi',
      memory: opts.controlPlane ? '512Mi' : '384Mi',
    };
  const logging = isRecord(c.logging) ? c.logging : {};
  if (!logging.format) c.logging = { ...logging, format: 'json' };
  c.shutdownGracePeriod ??= '30s';
  c.shutdownGracePeriodCriticalPods ??= '10s';
  c.streamingConnectionIdleTimeout ??= '5m0s';
  c.tlsMinVersion ||= 'VersionTLS13';
  c.resolvConf = paths.podResolvConf;
  return c;
}
