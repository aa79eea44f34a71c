// BootstrapManifestsConfigs.kubernetes.talos.dev (`manifests`, controlplane): what the machine config says of
// the manifests a control plane renders at bootstrap (kube-proxy, CoreDNS, flannel, the Talos API access
// CRD). YAML only, upstream's keys in upstream's order — the API server's URL included, which upstream
// tags `string`.
import { defineResource, type ResourceOf } from '../../src/cosi/resource/typed.js';
import { K8S_CONTROL_PLANE_NAMESPACE } from './namespace.js';

export const BOOTSTRAP_MANIFESTS_CONFIG_ID = 'manifests';

export interface BootstrapManifestsConfigSpec {
  /** the API server the in-cluster kubeconfig names: KubePrism's, else the cluster endpoint */
  server: string;
  clusterDomain: string;
  podCIDRs: string[];
  proxyEnabled: boolean;
  proxyImage: string;
  proxyArgs: string[];
  coreDNSEnabled: boolean;
  coreDNSImage: string;
  dnsServiceIP: string;
  dnsServiceIPv6: string;
  flannelEnabled: boolean;
  flannelImage: string;
  flannelExtraArgs: string[];
  flannelKubeServiceHost: string;
  flannelKubeServicePort: string;
  flannelKubeNetworkPoliciesEnabled: boolean;
  flannelKubeNetworkPoliciesImage: string;
  podSecurityPolicyEnabled: boolean;
  talosAPIServiceEnabled: boolean;
  cniName: string;
}

export const bootstrapManifestsConfigZero = (): BootstrapManifestsConfigSpec => ({
  server: '',
  clusterDomain: '',
  podCIDRs: [],
  proxyEnabled: false,
  proxyImage: '',
  proxyArgs: [],
  coreDNSEnabled: false,
  coreDNSImage: '',
  dnsServiceIP: '',
  dnsServiceIPv6: '',
  flannelEnabled: false,
  flannelImage: '',
  flannelExtraArgs: [],
  flannelKubeServiceHost: '',
  flannelKubeServicePort: '',
  flannelKubeNetworkPoliciesEnabled: false,
  flannelKubeNetworkPoliciesImage: '',
  podSecurityPolicyEnabled: false,
  talosAPIServiceEnabled: false,
  cniName: '',
});

export const BootstrapManifestsConfig = defineResource<BootstrapManifestsConfigSpec>({
  type: 'BootstrapManifestsConfigs.kubernetes.talos.dev',
  defaultNamespace: K8S_CONTROL_PLANE_NAMESPACE,
  empty: bootstrapManifestsConfigZero,
  copy: (s) => structuredClone(s),
  // upstream's order whatever order the spec was built in
  toYAML: (s) =>
    Object.fromEntries(
      (Object.keys(bootstrapManifestsConfigZero()) as (keyof BootstrapManifestsConfigSpec)[]).map((k) => [
        k === 'server' ? 'string' : k,
        s[k],
      ]),
    ),
  fromYAML: (v) => {
    const { string: server, ...rest } = (v ?? {}) as Partial<BootstrapManifestsConfigSpec> & {
      string?: string;
    };
    return { ...bootstrapManifestsConfigZero(), ...rest, server: server ?? '' };
  },
});
export type BootstrapManifestsConfig = ResourceOf<typeof BootstrapManifestsConfig>;
