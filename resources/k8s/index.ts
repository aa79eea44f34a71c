// resources/k8s: Kubernetes on a node — the name it registers with, the kubelet's node IPs, config and
// spec, the control plane's component configs, and the static pods with the server the kubelet reads
// them from. registerK8sResources records their definitions so the API can serve them.
import { registerResource } from '../../src/cosi/resource/meta/index.js';
import { defaultRegistry } from '../../src/cosi/resource/registry.js';
import type { ResourceType } from '../../src/cosi/resource/typed.js';
import type { SignalOptions } from '../../src/cosi/state/core.js';
import type { State } from '../../src/cosi/state/state.js';
import { APIServerConfig } from './apiserver-config.js';
import { ControllerManagerConfig } from './controller-manager-config.js';
import { KubeletConfig } from './kubelet-config.js';
import { KubeletSpec } from './kubelet-spec.js';
import { NodeIP } from './nodeip.js';
import { NodeIPConfig } from './nodeip-config.js';
import { Nodename } from './nodename.js';
import { SchedulerConfig } from './scheduler-config.js';
import { StaticPod } from './static-pod.js';
import { StaticPodServerStatus } from './static-pod-server-status.js';

export * from './apiserver-config.js';
export * from './component.js';
export * from './controller-manager-config.js';
export * from './kubelet-config.js';
export * from './kubelet-spec.js';
export * from './namespace.js';
export * from './nodeip.js';
export * from './nodeip-config.js';
export * from './nodename.js';
export * from './scheduler-config.js';
export * from './static-pod.js';
export * from './static-pod-server-status.js';

export const K8S_TYPES = [
  Nodename,
  NodeIPConfig,
  NodeIP,
  StaticPod,
  StaticPodServerStatus,
  KubeletConfig,
  KubeletSpec,
  APIServerConfig,
  ControllerManagerConfig,
  SchedulerConfig,
] as const;

/** registerK8sResources records the definitions of the k8s types in a state. */
export async function registerK8sResources(state: State, opts: SignalOptions = {}): Promise<void> {
  for (const t of K8S_TYPES) await registerResource(state, t, opts);
}

// decoders (gRPC, YAML) rebuild these types from the process-wide registry
for (const t of K8S_TYPES) defaultRegistry.register(t as ResourceType<unknown>);
