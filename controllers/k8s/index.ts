// controllers/k8s: Kubernetes on a node — the node's name, the kubelet's node IPs, config and spec, the
// control plane's component configs, and the server the kubelet reads its static pods from. (The address
// filters the network controllers need run with them: network-controllers.ts.)
import { ControlPlaneAPIServerController } from './control-plane-apiserver.js';
import { ControlPlaneControllerManagerController } from './control-plane-controller-manager.js';
import { ControlPlaneSchedulerController } from './control-plane-scheduler.js';
import { KubeletConfigController } from './kubelet-config.js';
import { kubeletSpecController } from './kubelet-spec.js';
import { NodeIPController } from './nodeip.js';
import { NodeIPConfigController } from './nodeip-config.js';
import { NodenameController } from './nodename.js';
import { StaticPodServerController } from './static-pod-server.js';

export * from './control-plane-apiserver.js';
export * from './control-plane-controller-manager.js';
export * from './control-plane-scheduler.js';
export * from './kubelet-config.js';
export * from './kubelet-spec.js';
export * from './nodeip.js';
export * from './nodeip-config.js';
export * from './nodename.js';
export * from './static-pod-server.js';

export interface K8sControllerOptions {
  /** a container node (its host's kernel parameters are not its own) */
  readonly container?: boolean;
}

/** k8sControllers are the Kubernetes controllers every node runs. */
export const k8sControllers = (opts: K8sControllerOptions = {}) => [
  NodenameController,
  NodeIPConfigController,
  NodeIPController,
  StaticPodServerController,
  KubeletConfigController,
  kubeletSpecController({ container: opts.container === true }),
  ControlPlaneAPIServerController,
  ControlPlaneControllerManagerController,
  ControlPlaneSchedulerController,
];
