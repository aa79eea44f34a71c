// controllers/k8s: Kubernetes on a node — for now the node's name. (The address filters the network
// controllers need run with them: network-controllers.ts.)
import { NodenameController } from './nodename.js';

export * from './nodename.js';

/** k8sControllers are the Kubernetes controllers every node runs. */
export const k8sControllers = () => [NodenameController];
