// APIServerConfigs.kubernetes.talos.dev (`kube-apiserver`, controlplane): what the machine config says of
// the API server — the input of its static pod. YAML only, upstream's keys.
import { defineResource, type ResourceOf } from '../../src/cosi/resource/typed.js';
import type { ArgValues, ExtraVolume, Resources } from './component.js';
import { K8S_CONTROL_PLANE_NAMESPACE } from './namespace.js';

export const APISERVER_ID = 'kube-apiserver';

export interface APIServerConfigSpec {
  image: string;
  cloudProvider: string;
  controlPlaneEndpoint: string;
  etcdServers: string[];
  localPort: number;
  serviceCIDRs: string[];
  extraArgs: Record<string, ArgValues>;
  extraVolumes: ExtraVolume[];
  environmentVariables: Record<string, string>;
  /** `$(POD_IP)`, or '' for a node that does not register */
  advertisedAddress: string;
  resources: Resources;
}

const aPIServerConfigZero = (): APIServerConfigSpec => ({
  image: '',
  cloudProvider: '',
  controlPlaneEndpoint: '',
  etcdServers: [],
  localPort: 0,
  serviceCIDRs: [],
  extraArgs: {},
  extraVolumes: [],
  environmentVariables: {},
  advertisedAddress: '',
  resources: { requests: {} },
});

export const APIServerConfig = defineResource<APIServerConfigSpec>({
  type: 'APIServerConfigs.kubernetes.talos.dev',
  defaultNamespace: K8S_CONTROL_PLANE_NAMESPACE,
  empty: aPIServerConfigZero,
  copy: (s) => structuredClone(s),
  // upstream's YAML key for the service CIDRs is `serviceCIDR`
  toYAML: ({ serviceCIDRs, ...s }) => ({
    image: s.image,
    cloudProvider: s.cloudProvider,
    controlPlaneEndpoint: s.controlPlaneEndpoint,
    etcdServers: s.etcdServers,
    localPort: s.localPort,
    serviceCIDR: serviceCIDRs,
    extraArgs: s.extraArgs,
    extraVolumes: s.extraVolumes,
    environmentVariables: s.environmentVariables,
    advertisedAddress: s.advertisedAddress,
    resources: s.resources,
  }),
  fromYAML: (v) => {
    const { serviceCIDR, ...o } = (v ?? {}) as Partial<APIServerConfigSpec> & { serviceCIDR?: string[] };
    return { ...aPIServerConfigZero(), ...o, serviceCIDRs: serviceCIDR ?? [] };
  },
});
export type APIServerConfig = ResourceOf<typeof APIServerConfig>;
