// controllers/k8s: Kubernetes on a node — the node's name, the kubelet's node IPs, config, spec and service, the
// control plane's component configs, the files its static pods read and the pods themselves, the
// bootstrap manifests and their apply to the cluster, the server the kubelet reads its static pods
// from and the status the kubelet reports of each, KubePrism, the node's local load balancer for the
// API, and the labels, taints, annotations and cordon put on the node's Kubernetes Node. (The address
// filters the network controllers need run with them: network-controllers.ts.)
import { ControlPlaneAdmissionControlController } from './control-plane-admission-control.js';
import { ControlPlaneAPIServerController } from './control-plane-apiserver.js';
import { ControlPlaneAuditPolicyController } from './control-plane-audit-policy.js';
import { ControlPlaneAuthorizationController } from './control-plane-authorization.js';
import { ControlPlaneBootstrapManifestsController } from './control-plane-bootstrap-manifests.js';
import { ControlPlaneControllerManagerController } from './control-plane-controller-manager.js';
import { ControlPlaneSchedulerController } from './control-plane-scheduler.js';
import { controlPlaneStaticPodController } from './control-plane-static-pod.js';
import { KubeletConfigController } from './kubelet-config.js';
import type { KubeletPaths } from './kubelet-paths.js';
import { kubeletServiceController } from './kubelet-service.js';
import { kubeletSpecController } from './kubelet-spec.js';
import { kubeletStaticPodController } from './kubelet-static-pod.js';
import { KubePrismController } from './kubeprism.js';
import { KubePrismConfigController } from './kubeprism-config.js';
import { KubePrismEndpointsController } from './kubeprism-endpoints.js';
import { ManifestController } from './manifest.js';
import { ManifestApplyController } from './manifest-apply.js';
import { NodeAnnotationSpecController } from './node-annotation-spec.js';
import { nodeApplyController } from './node-apply.js';
import { NodeCordonedSpecController } from './node-cordoned-spec.js';
import { NodeLabelSpecController } from './node-label-spec.js';
import { NodeTaintSpecController } from './node-taint-spec.js';
import { NodeIPController } from './nodeip.js';
import { NodeIPConfigController } from './nodeip-config.js';
import { NodenameController } from './nodename.js';
import { renderConfigsStaticPodController } from './render-configs-static-pod.js';
import { renderSecretsStaticPodController } from './render-secrets-static-pod.js';
import { NODE_STATIC_POD_DIRS, type StaticPodDirs } from './static-pod-paths.js';
import { StaticPodServerController } from './static-pod-server.js';

export * from './control-plane-admission-control.js';
export * from './control-plane-apiserver.js';
export * from './control-plane-audit-policy.js';
export * from './control-plane-authorization.js';
export * from './control-plane-bootstrap-manifests.js';
export * from './control-plane-controller-manager.js';
export * from './control-plane-scheduler.js';
export * from './control-plane-static-pod.js';
export * from './kubelet-config.js';
export * from './kubelet-paths.js';
export * from './kubelet-service.js';
export * from './kubelet-spec.js';
export * from './kubelet-static-pod.js';
export * from './kubeprism.js';
export * from './kubeprism-config.js';
export * from './kubeprism-endpoints.js';
export * from './manifest.js';
export * from './manifest-apply.js';
export * from './node-annotation-spec.js';
export * from './node-apply.js';
export * from './node-cordoned-spec.js';
export * from './node-label-spec.js';
export * from './node-taint-spec.js';
export * from './nodeip.js';
export * from './nodeip-config.js';
export * from './nodename.js';
export * from './render-configs-static-pod.js';
export * from './render-secrets-static-pod.js';
export * from './static-pod-paths.js';
export * from './static-pod-server.js';

export interface K8sControllerOptions {
  /** a container node (its host's kernel parameters are not its own) */
  readonly container?: boolean;
  /** where the kubelet's files are; default a node's */
  readonly kubelet?: KubeletPaths;
  /** the kubelet's first start waits for time sync and the network (a node with its own) */
  readonly waitForHost?: boolean;
  /** where the control plane's secrets, configs and audit log are on the host; default a node's */
  readonly staticPods?: StaticPodDirs;
}

/** k8sControllers are the Kubernetes controllers every node runs. */
export const k8sControllers = (opts: K8sControllerOptions = {}) => [
  NodenameController,
  NodeIPConfigController,
  NodeIPController,
  StaticPodServerController,
  KubeletConfigController,
  kubeletSpecController({
    container: opts.container === true,
    ...(opts.kubelet ? { paths: opts.kubelet } : {}),
  }),
  kubeletServiceController({
    ...(opts.kubelet ? { paths: opts.kubelet } : {}),
    waitForHost: opts.waitForHost === true,
  }),
  kubeletStaticPodController(opts.kubelet ? { kubelet: opts.kubelet } : {}),
  // a container node shares its host's network, so KubePrism listens on the host's loopback there too:
  // that is where the node's kubelet dials it
  KubePrismEndpointsController,
  KubePrismConfigController,
  KubePrismController,
  ControlPlaneAPIServerController,
  ControlPlaneControllerManagerController,
  ControlPlaneSchedulerController,
  ControlPlaneAdmissionControlController,
  ControlPlaneAuditPolicyController,
  ControlPlaneAuthorizationController,
  ControlPlaneBootstrapManifestsController,
  ManifestController,
  ManifestApplyController,
  NodeLabelSpecController,
  NodeTaintSpecController,
  NodeAnnotationSpecController,
  NodeCordonedSpecController,
  nodeApplyController(opts.kubelet ? { kubelet: opts.kubelet } : {}),
  // a container node's files stay its own: the components' uids would be its host's
  renderSecretsStaticPodController({
    secretsDir: (opts.staticPods ?? NODE_STATIC_POD_DIRS).secretsDir,
    owned: opts.container !== true,
  }),
  renderConfigsStaticPodController({
    configDir: (opts.staticPods ?? NODE_STATIC_POD_DIRS).configDir,
    auditLogDir: (opts.staticPods ?? NODE_STATIC_POD_DIRS).auditLogDir,
    owned: opts.container !== true,
  }),
  controlPlaneStaticPodController(opts.staticPods ?? NODE_STATIC_POD_DIRS),
];
