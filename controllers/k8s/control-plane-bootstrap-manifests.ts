// k8s.ControlPlaneBootstrapManifestsController: BootstrapManifestsConfig `manifests` (controlplane) from the
// machine config on a control-plane node, as upstream's: the API server the in-cluster kubeconfig names
// (KubePrism's when it runs), the cluster DNS addresses, kube-proxy's image and final arguments, CoreDNS,
// flannel (when it is the CNI) and the Talos API access CRD.

import { MachineConfig } from '../../resources/config/machine-config.js';
import {
  BOOTSTRAP_MANIFESTS_CONFIG_ID,
  BootstrapManifestsConfig,
  type BootstrapManifestsConfigSpec,
} from '../../resources/k8s/index.js';
import type { Config } from '../../src/config/index.js';
import { transformController } from '../../src/cosi/controller/generic/index.js';
import { activeConfigMap } from '../config/active-config-map.js';
import { configOf } from '../config/config-of.js';
import { controlPlaneOf, imageOr, podCIDRsOf, serviceCIDRsOf } from './internal/control-plane.js';
import { proxyArgsOf } from './internal/proxy-args.js';
import { DEFAULT_DNS_DOMAIN, dnsServiceIPs } from './kubelet-config.js';

/** the CNI Talos manages itself, and the one a cluster gets when its config names none */
export const FLANNEL_CNI = 'flannel';
/**
 * The add-ons' images: CoreDNS by default and flannel are the ones Kubernetes' layer ships
 * (images/components.yaml; upstream v1.13.0 names CoreDNS v1.14.2 and flannel v0.28.4, and nothing is
 * pulled here); the network policies' image is upstream's, not shipped.
 */
export const DEFAULT_COREDNS_IMAGE = 'registry.k8s.io/coredns/coredns:v1.14.6';
export const FLANNEL_IMAGE = 'ghcr.io/siderolabs/flannel:v0.28.7';
export const KUBE_NETWORK_POLICIES_IMAGE = 'registry.k8s.io/networking/kube-network-policies:v1.0.0';
export const DEFAULT_KUBEPRISM_PORT = 7445;

export function bootstrapManifestsConfigOf(cfg: Config): BootstrapManifestsConfigSpec | undefined {
  const v1 = controlPlaneOf(cfg);
  if (!v1) return undefined;
  const { cluster, machine } = v1;
  const dns = dnsServiceIPs(serviceCIDRsOf(v1));
  const podCIDRs = podCIDRsOf(v1);
  const proxyImage = imageOr(cluster.proxy?.image, 'registry.k8s.io/kube-proxy');
  const prism = machine.features?.kubePrism;
  const prismPort = String(prism?.port || DEFAULT_KUBEPRISM_PORT);
  // a cni section without a name names none; no section is flannel
  const cni = cluster.network?.cni;
  const cniName = cni ? (cni.name ?? '') : FLANNEL_CNI;
  return {
    // KubePrism answers on every node's loopback, so pods on the host network need no cluster endpoint
    server: prism?.enabled ? `https://127.0.0.1:${prismPort}` : (cluster.controlPlane?.endpoint ?? ''),
    clusterDomain: cluster.network?.dnsDomain || DEFAULT_DNS_DOMAIN,
    podCIDRs,
    proxyEnabled: cluster.proxy?.disabled !== true,
    proxyImage,
    proxyArgs: proxyArgsOf({
      podCIDRs,
      image: proxyImage,
      ...(cluster.proxy?.mode ? { mode: cluster.proxy.mode } : {}),
      ...(cluster.proxy?.extraArgs ? { extraArgs: cluster.proxy.extraArgs } : {}),
    }),
    coreDNSEnabled: cluster.coreDNS?.disabled !== true,
    coreDNSImage: cluster.coreDNS?.image || DEFAULT_COREDNS_IMAGE,
    dnsServiceIP: dns.find((ip) => !ip.includes(':')) ?? '',
    dnsServiceIPv6: dns.find((ip) => ip.includes(':')) ?? '',
    flannelEnabled: cniName === FLANNEL_CNI,
    flannelImage: FLANNEL_IMAGE,
    flannelExtraArgs: [...(cni?.flannel?.extraArgs ?? [])],
    flannelKubeServiceHost: prism?.enabled ? '127.0.0.1' : '',
    flannelKubeServicePort: prism?.enabled ? prismPort : '',
    flannelKubeNetworkPoliciesEnabled: cni?.flannel?.kubeNetworkPoliciesEnabled === true,
    flannelKubeNetworkPoliciesImage: KUBE_NETWORK_POLICIES_IMAGE,
    podSecurityPolicyEnabled: false,
    talosAPIServiceEnabled: machine.features?.kubernetesTalosAPIAccess?.enabled === true,
    cniName,
  };
}

export const ControlPlaneBootstrapManifestsController = transformController({
  name: 'k8s.ControlPlaneBootstrapManifestsController',
  input: MachineConfig,
  output: BootstrapManifestsConfig,
  mapOptional: activeConfigMap(BOOTSTRAP_MANIFESTS_CONFIG_ID, true),
  transform: (_rt, cfg, out) => {
    // the map let only a control plane's config through
    out.spec = bootstrapManifestsConfigOf(configOf(cfg.spec))!;
  },
});
