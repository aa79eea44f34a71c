// controllers/k8s: Kubernetes on a node — the node's name, the kubelet's node IPs and config, and the
// server the kubelet reads its static pods from. (The address filters the network
// controllers need run with them: network-controllers.ts.)
import { KubeletConfigController } from './kubelet-config.js';
import { NodeIPController } from './nodeip.js';
import { NodeIPConfigController } from './nodeip-config.js';
import { NodenameController } from './nodename.js';
import { StaticPodServerController } from './static-pod-server.js';

export * from './kubelet-config.js';
export * from './nodeip.js';
export * from './nodeip-config.js';
export * from './nodename.js';
export * from './static-pod-server.js';

/** k8sControllers are the Kubernetes controllers every node runs. */
export const k8sControllers = () => [
  NodenameController,
  NodeIPConfigController,
  NodeIPController,
  StaticPodServerController,
  KubeletConfigController,
];
