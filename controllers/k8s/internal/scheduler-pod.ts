// The kube-scheduler static pod, as upstream's (v1.13) manageScheduler: its arguments (the argsbuilder
// merge, the config and kubeconfigs refused), its secrets and config directories, and HTTPS probes on its
// secure port whose paths depend on the version (/livez and /readyz from 1.31).
import type { SchedulerConfigSpec } from '../../../resources/k8s/index.js';
import { inPod, type StaticPodDirs } from '../static-pod-paths.js';
import type { ControlPlaneVersions } from './apiserver-pod.js';
import { argList, type MergePolicy, mergeArgs } from './args.js';
import { schedulerHealthEndpoints, versionFromImageRef, versionString } from './kube-version.js';
import {
  ANNOTATION_CONFIG_VERSION,
  ANNOTATION_SECRETS_VERSION,
  containerSecurity,
  envOf,
  extraMounts,
  extraVolumes,
  hostPathVolume,
  httpsProbe,
  LIVENESS_TIMEOUT,
  mount,
  type Obj,
  podResources,
  SLOW_START,
  staticPod,
  TERMINATION_MESSAGE_POLICY,
} from './static-pod-common.js';

const ID = 'kube-scheduler';
const PORT = 10259;

const POLICIES: Record<string, MergePolicy> = {
  kubeconfig: 'denied',
  'authentication-kubeconfig': 'denied',
  'authorization-kubeconfig': 'denied',
  config: 'denied',
};

export function schedulerCommand(cfg: SchedulerConfigSpec): string[] {
  const args = new Map(
    Object.entries({
      config: inPod.config(ID, 'scheduler-config.yaml'),
      'authentication-tolerate-lookup-failure': 'false',
      'authentication-kubeconfig': inPod.secrets(ID, 'kubeconfig'),
      'authorization-kubeconfig': inPod.secrets(ID, 'kubeconfig'),
      'bind-address': '127.0.0.1',
      'leader-elect': 'true',
      profiling: 'false',
      'tls-min-version': 'VersionTLS13',
    }).map(([k, v]) => [k, [v]]),
  );
  const extra = new Map(Object.entries(cfg.extraArgs).map(([k, v]) => [k, v.values]));
  return ['/usr/local/bin/kube-scheduler', ...argList(mergeArgs(args, extra, POLICIES))];
}

/** schedulerPod is the whole v1 Pod; its host paths are where this node keeps the files. */
export function schedulerPod(
  cfg: SchedulerConfigSpec,
  versions: Pick<ControlPlaneVersions, 'secrets' | 'config'>,
  dirs: StaticPodDirs,
): Obj {
  const resources = podResources(cfg.resources, '10m', '64Mi');
  const version = versionFromImageRef(cfg.image);
  const health = schedulerHealthEndpoints(version);
  return staticPod({
    id: ID,
    version: versionString(version),
    annotations: {
      [ANNOTATION_SECRETS_VERSION]: versions.secrets,
      [ANNOTATION_CONFIG_VERSION]: versions.config,
    },
    container: {
      name: ID,
      image: cfg.image,
      command: schedulerCommand(cfg),
      env: envOf(cfg.environmentVariables, resources),
      resources,
      volumeMounts: [
        mount('secrets', inPod.secrets(ID), true),
        mount('config', inPod.config(ID), true),
        ...extraMounts(cfg.extraVolumes),
      ],
      livenessProbe: httpsProbe(health.liveness, PORT, LIVENESS_TIMEOUT),
      readinessProbe: httpsProbe(health.readiness, PORT),
      startupProbe: httpsProbe(health.startup, PORT, SLOW_START),
      terminationMessagePolicy: TERMINATION_MESSAGE_POLICY,
      securityContext: containerSecurity(),
    },
    volumes: [
      hostPathVolume('secrets', `${dirs.secretsDir}/${ID}`),
      hostPathVolume('config', `${dirs.configDir}/${ID}`),
      ...extraVolumes(cfg.extraVolumes),
    ],
  });
}
