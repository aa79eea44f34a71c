// resources/k8s: Kubernetes on a node — the name it registers with, the kubelet's node IPs, config and
// spec, the control plane's component configs with the status of their files on disk, and the static
// pods with the server the kubelet reads them from and the status the kubelet reports of each, and the
// control plane's bootstrap manifests with the status of their apply, KubePrism, the node's local load
// balancer for the API, and the labels, taints, annotations and cordon the node's Kubernetes Node should
// carry.
// registerK8sResources records their definitions so the API can serve them.
import { registerResource } from '../../src/cosi/resource/meta/index.js';
import { defaultRegistry } from '../../src/cosi/resource/registry.js';
import type { ResourceType } from '../../src/cosi/resource/typed.js';
import type { SignalOptions } from '../../src/cosi/state/core.js';
import type { State } from '../../src/cosi/state/state.js';
import { AdmissionControlConfig } from './admission-control-config.js';
import { APIServerConfig } from './apiserver-config.js';
import { AuditPolicyConfig } from './audit-policy-config.js';
import { AuthorizationConfig } from './authorization-config.js';
import { BootstrapManifestsConfig } from './bootstrap-manifests-config.js';
import { ConfigStatus } from './config-status.js';
import { ControllerManagerConfig } from './controller-manager-config.js';
import { KubeletConfig } from './kubelet-config.js';
import { KubeletSpec } from './kubelet-spec.js';
import { KubePrismConfig } from './kubeprism-config.js';
import { KubePrismEndpoints } from './kubeprism-endpoints.js';
import { KubePrismStatuses } from './kubeprism-statuses.js';
import { Manifest } from './manifest.js';
import { ManifestStatus } from './manifest-status.js';
import { NodeAnnotationSpec } from './node-annotation-spec.js';
import { NodeCordonedSpec } from './node-cordoned-spec.js';
import { NodeLabelSpec } from './node-label-spec.js';
import { NodeTaintSpec } from './node-taint-spec.js';
import { NodeIP } from './nodeip.js';
import { NodeIPConfig } from './nodeip-config.js';
import { Nodename } from './nodename.js';
import { SchedulerConfig } from './scheduler-config.js';
import { SecretsStatus } from './secrets-status.js';
import { StaticPod } from './static-pod.js';
import { StaticPodServerStatus } from './static-pod-server-status.js';
import { StaticPodStatus } from './static-pod-status.js';

export * from './admission-control-config.js';
export * from './apiserver-config.js';
export * from './audit-policy-config.js';
export * from './authorization-config.js';
export * from './bootstrap-manifests-config.js';
export * from './component.js';
export * from './config-status.js';
export * from './controller-manager-config.js';
export * from './kubelet-config.js';
export * from './kubelet-spec.js';
export * from './kubeprism-config.js';
export * from './kubeprism-endpoints.js';
export * from './kubeprism-statuses.js';
export * from './manifest.js';
export * from './manifest-status.js';
export * from './namespace.js';
export * from './node-annotation-spec.js';
export * from './node-cordoned-spec.js';
export * from './node-label-spec.js';
export * from './node-taint-spec.js';
export * from './nodeip.js';
export * from './nodeip-config.js';
export * from './nodename.js';
export * from './scheduler-config.js';
export * from './secrets-status.js';
export * from './static-pod.js';
export * from './static-pod-server-status.js';
export * from './static-pod-status.js';

export const K8S_TYPES = [
  Nodename,
  NodeIPConfig,
  NodeIP,
  StaticPod,
  StaticPodServerStatus,
  StaticPodStatus,
  KubeletConfig,
  KubeletSpec,
  APIServerConfig,
  ControllerManagerConfig,
  SchedulerConfig,
  BootstrapManifestsConfig,
  Manifest,
  ManifestStatus,
  AdmissionControlConfig,
  AuditPolicyConfig,
  AuthorizationConfig,
  SecretsStatus,
  ConfigStatus,
  KubePrismEndpoints,
  KubePrismConfig,
  KubePrismStatuses,
  NodeLabelSpec,
  NodeTaintSpec,
  NodeAnnotationSpec,
  NodeCordonedSpec,
] as const;

/** registerK8sResources records the definitions of the k8s types in a state. */
export async function registerK8sResources(state: State, opts: SignalOptions = {}): Promise<void> {
  for (const t of K8S_TYPES) await registerResource(state, t, opts);
}

// decoders (gRPC, YAML) rebuild these types from the process-wide registry
for (const t of K8S_TYPES) defaultRegistry.register(t as ResourceType<unknown>);
