// KubeletConfigs.kubernetes.talos.dev (`kubelet`): what the machine config says of the kubelet, with the
// cluster's DNS and the static pod server's URL — the input of its final spec. Its YAML is upstream's
// (extraArgs as lists of values, extraMounts as OCI mounts); it travels as YAML only.
import { defineResource, type ResourceOf } from '../../src/cosi/resource/typed.js';
import type { ArgValues } from './component.js';
import { K8S_NAMESPACE } from './namespace.js';

/** Mount is an OCI runtime-spec mount. */
export interface Mount {
  destination: string;
  type?: string;
  source?: string;
  options?: string[];
}

export interface KubeletConfigSpec {
  image: string;
  clusterDNS: string[];
  clusterDomain: string;
  extraArgs?: Record<string, ArgValues>;
  extraMounts?: Mount[];
  extraConfig?: Record<string, unknown>;
  cloudProviderExternal: boolean;
  defaultRuntimeSeccompEnabled: boolean;
  skipNodeRegistration: boolean;
  staticPodListURL: string;
  disableManifestsDirectory: boolean;
  enableFSQuotaMonitoring: boolean;
  credentialProviderConfig?: Record<string, unknown>;
  allowSchedulingOnControlPlane: boolean;
}

export const kubeletConfigZero = (): KubeletConfigSpec => ({
  image: '',
  clusterDNS: [],
  clusterDomain: '',
  cloudProviderExternal: false,
  defaultRuntimeSeccompEnabled: false,
  skipNodeRegistration: false,
  staticPodListURL: '',
  disableManifestsDirectory: false,
  enableFSQuotaMonitoring: false,
  allowSchedulingOnControlPlane: false,
});

export const KubeletConfig = defineResource<KubeletConfigSpec>({
  type: 'KubeletConfigs.kubernetes.talos.dev',
  defaultNamespace: K8S_NAMESPACE,
  empty: kubeletConfigZero,
  copy: (s) => structuredClone(s),
  // upstream's key order; the optional ones only when set (omitempty)
  toYAML: (s) => ({
    image: s.image,
    clusterDNS: s.clusterDNS,
    clusterDomain: s.clusterDomain,
    ...(s.extraArgs && Object.keys(s.extraArgs).length ? { extraArgs: s.extraArgs } : {}),
    ...(s.extraMounts?.length ? { extraMounts: s.extraMounts } : {}),
    ...(s.extraConfig && Object.keys(s.extraConfig).length ? { extraConfig: s.extraConfig } : {}),
    cloudProviderExternal: s.cloudProviderExternal,
    defaultRuntimeSeccompEnabled: s.defaultRuntimeSeccompEnabled,
    skipNodeRegistration: s.skipNodeRegistration,
    staticPodListURL: s.staticPodListURL,
    disableManifestsDirectory: s.disableManifestsDirectory,
    enableFSQuotaMonitoring: s.enableFSQuotaMonitoring,
    ...(s.credentialProviderConfig && Object.keys(s.credentialProviderConfig).length
      ? { credentialProviderConfig: s.credentialProviderConfig }
      : {}),
    allowSchedulingOnControlPlane: s.allowSchedulingOnControlPlane,
  }),
  fromYAML: (v) => ({ ...kubeletConfigZero(), ...((v ?? {}) as Partial<KubeletConfigSpec>) }),
});
export type KubeletConfig = ResourceOf<typeof KubeletConfig>;
