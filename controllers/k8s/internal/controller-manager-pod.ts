// The kube-controller-manager static pod, as upstream's (v1.13) manageControllerManager: its arguments
// (the argsbuilder merge, the signing and kubeconfig files refused), its secrets directory, and HTTPS
// startup and liveness probes on its secure port.
import type { ControllerManagerConfigSpec } from '../../../resources/k8s/index.js';
import { inPod, type StaticPodDirs } from '../static-pod-paths.js';
import type { ControlPlaneVersions } from './apiserver-pod.js';
import { argList, type MergePolicy, mergeArgs } from './args.js';
import { cloudProviderFlagRemoved, versionFromImageRef, versionString } from './kube-version.js';
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

const ID = 'kube-controller-manager';
const PORT = 10257;
const secret = (f: string) => inPod.secrets(ID, f);

const POLICIES: Record<string, MergePolicy> = {
  'service-cluster-ip-range': 'additive',
  controllers: 'additive',
  'cluster-signing-cert-file': 'denied',
  'cluster-signing-key-file': 'denied',
  'authentication-kubeconfig': 'denied',
  'authorization-kubeconfig': 'denied',
  'root-ca-file': 'denied',
  'service-account-private-key-file': 'denied',
};

export function controllerManagerCommand(cfg: ControllerManagerConfigSpec): string[] {
  const args = new Map(
    Object.entries({
      'allocate-node-cidrs': 'true',
      'bind-address': '127.0.0.1',
      'cluster-cidr': cfg.podCIDRs.join(','),
      'service-cluster-ip-range': cfg.serviceCIDRs.join(','),
      'cluster-signing-cert-file': secret('ca.crt'),
      'cluster-signing-key-file': secret('ca.key'),
      controllers: '*,tokencleaner',
      'configure-cloud-routes': 'false',
      kubeconfig: secret('kubeconfig'),
      'authentication-kubeconfig': secret('kubeconfig'),
      'authorization-kubeconfig': secret('kubeconfig'),
      'leader-elect': 'true',
      'root-ca-file': secret('ca.crt'),
      'service-account-private-key-file': secret('service-account.key'),
      profiling: 'false',
      'tls-min-version': 'VersionTLS13',
    }).map(([k, v]) => [k, [v]]),
  );
  if (cfg.cloudProvider && !cloudProviderFlagRemoved(versionFromImageRef(cfg.image)))
    args.set('cloud-provider', [cfg.cloudProvider]);
  const extra = new Map(Object.entries(cfg.extraArgs).map(([k, v]) => [k, v.values]));
  return [
    '/usr/local/bin/kube-controller-manager',
    '--use-service-account-credentials',
    ...argList(mergeArgs(args, extra, POLICIES)),
  ];
}

/** controllerManagerPod is the whole v1 Pod; its host paths are where this node keeps the files. */
export function controllerManagerPod(
  cfg: ControllerManagerConfigSpec,
  versions: Pick<ControlPlaneVersions, 'secrets' | 'config'>,
  dirs: StaticPodDirs,
): Obj {
  const resources = podResources(cfg.resources, '50m', '256Mi');
  return staticPod({
    id: ID,
    version: versionString(versionFromImageRef(cfg.image)),
    annotations: {
      [ANNOTATION_SECRETS_VERSION]: versions.secrets,
      [ANNOTATION_CONFIG_VERSION]: versions.config,
    },
    container: {
      name: ID,
      image: cfg.image,
      command: controllerManagerCommand(cfg),
      env: envOf(cfg.environmentVariables, resources),
      resources,
      volumeMounts: [mount('secrets', inPod.secrets(ID), true), ...extraMounts(cfg.extraVolumes)],
      livenessProbe: httpsProbe('/healthz', PORT, LIVENESS_TIMEOUT),
      startupProbe: httpsProbe('/healthz', PORT, SLOW_START),
      terminationMessagePolicy: TERMINATION_MESSAGE_POLICY,
      securityContext: containerSecurity(),
    },
    volumes: [hostPathVolume('secrets', `${dirs.secretsDir}/${ID}`), ...extraVolumes(cfg.extraVolumes)],
  });
}
