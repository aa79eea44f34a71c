// The namespaces and resource types a node registers on top of machined's own (runtime): one list, which
// the node's start and the build's code-cache training (which runs the network controllers) both use.
import { registerBlockResources } from '../../../resources/block/index.js';
import { CLUSTER_NAMESPACE, registerClusterResources } from '../../../resources/cluster/index.js';
import { CONFIG_NAMESPACE, registerConfigResources } from '../../../resources/config/index.js';
import { CRI_NAMESPACE, registerCriResources } from '../../../resources/cri/index.js';
import { ETCD_NAMESPACE, registerEtcdResources } from '../../../resources/etcd/index.js';
import { FILES_NAMESPACE, registerFilesResources } from '../../../resources/files/index.js';
import {
  K8S_CONTROL_PLANE_NAMESPACE,
  K8S_NAMESPACE,
  registerK8sResources,
} from '../../../resources/k8s/index.js';
import {
  NETWORK_CONFIG_NAMESPACE,
  NETWORK_NAMESPACE,
  registerNetworkResources,
} from '../../../resources/network/index.js';
import { registerSecretsResources, SECRETS_NAMESPACE } from '../../../resources/secrets/index.js';
import { registerTimeResources } from '../../../resources/time/index.js';
import { registerV1Alpha1Resources } from '../../../resources/v1alpha1/index.js';
import { registerNamespace } from '../../cosi/resource/meta/index.js';
import type { State } from '../../cosi/state/state.js';

/** registerNodeResources registers the node's namespaces and resource definitions on `state`. */
export async function registerNodeResources(state: State): Promise<void> {
  await registerNamespace(state, CONFIG_NAMESPACE, 'Talos node configuration.');
  await registerNamespace(state, SECRETS_NAMESPACE, 'Resources with secret material.');
  await registerNamespace(state, NETWORK_NAMESPACE, 'Networking resources.');
  await registerNamespace(state, NETWORK_CONFIG_NAMESPACE, 'Networking configuration resources.');
  await registerNamespace(state, FILES_NAMESPACE, 'Files and file-related resources.');
  await registerNamespace(state, CLUSTER_NAMESPACE, 'Cluster configuration and discovery resources.');
  await registerNamespace(state, ETCD_NAMESPACE, 'etcd resources.');
  await registerNamespace(state, CRI_NAMESPACE, 'CRI Seccomp resources.');
  await registerNamespace(state, K8S_NAMESPACE, 'Kubernetes all node types resources.');
  await registerNamespace(state, K8S_CONTROL_PLANE_NAMESPACE, 'Kubernetes control plane resources.');
  await registerConfigResources(state);
  await registerEtcdResources(state);
  await registerCriResources(state);
  await registerK8sResources(state);
  await registerSecretsResources(state);
  await registerNetworkResources(state);
  await registerTimeResources(state);
  await registerFilesResources(state);
  await registerV1Alpha1Resources(state);
  await registerClusterResources(state);
  // block types live in machined's own namespace (runtime), as upstream's do
  await registerBlockResources(state);
}
