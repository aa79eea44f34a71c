// Where the kubelet's files are. A node uses upstream's paths; a container node keeps them under its state
// directory (its host's /etc/kubernetes and /var/lib/kubelet are not its own), so every path the kubelet's
// arguments, its configuration and its service name comes from here.
import { join } from 'node:path';

export interface KubeletPaths {
  /** /etc/kubernetes: the kubelet's config, kubeconfigs, CA bundle and static pod manifests */
  readonly etcKubernetes: string;
  /** /var/lib/kubelet: the kubelet's root directory (its pods, volumes, and its certificates in pki/) */
  readonly rootDir: string;
  /** /var/log/pods: the pods' logs */
  readonly podLogs: string;
  /** /var/log/containers: the links to the containers' logs */
  readonly containerLogs: string;
  /** /run/containerd/containerd.sock: the CRI */
  readonly criSocket: string;
  /** /system/resolved/resolv.conf: the resolv.conf pods get */
  readonly podResolvConf: string;
}

export const NODE_KUBELET_PATHS: KubeletPaths = {
  etcKubernetes: '/etc/kubernetes',
  rootDir: '/var/lib/kubelet',
  podLogs: '/var/log/pods',
  containerLogs: '/var/log/containers',
  criSocket: '/run/containerd/containerd.sock',
  podResolvConf: '/system/resolved/resolv.conf',
};

/** kubeletPathsUnder puts every path under `root` (a container node's state directory). */
export function kubeletPathsUnder(root: string, criSocket: string): KubeletPaths {
  const under = (p: string) => join(root, p);
  const n = NODE_KUBELET_PATHS;
  return {
    etcKubernetes: under(n.etcKubernetes),
    rootDir: under(n.rootDir),
    podLogs: under(n.podLogs),
    containerLogs: under(n.containerLogs),
    criSocket,
    podResolvConf: under(n.podResolvConf),
  };
}

/** the files and directories named after those roots */
export const kubeletFiles = (p: KubeletPaths) => ({
  config: `${p.etcKubernetes}/kubelet.yaml`,
  bootstrapKubeconfig: `${p.etcKubernetes}/bootstrap-kubeconfig`,
  kubeconfig: `${p.etcKubernetes}/kubeconfig-kubelet`,
  caCert: `${p.etcKubernetes}/pki/ca.crt`,
  manifests: `${p.etcKubernetes}/manifests`,
  credentialProviderConfig: `${p.etcKubernetes}/kubelet-credentialproviderconfig.yaml`,
  pkiDir: `${p.rootDir}/pki`,
  seccompProfiles: `${p.rootDir}/seccomp/profiles`,
});
