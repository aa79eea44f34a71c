// v1alpha1 `cluster:` section, in upstream key order.
import { type CertAndKey, certAndKey, certOnly, keyOnly } from '../common.js';
import {
  bool,
  int,
  keyedBy,
  list,
  map,
  type Schema,
  str,
  struct,
  unstructured,
  unstructuredReplaced,
} from '../schema.js';

export interface VolumeMount {
  hostPath?: string;
  mountPath?: string;
  readonly?: boolean;
}
export interface ControlPlaneComponent {
  image?: string;
  extraArgs?: Record<string, string>;
  extraVolumes?: VolumeMount[];
  env?: Record<string, string>;
  resources?: { requests?: Record<string, unknown>; limits?: Record<string, unknown> };
}
export interface APIServerConfig extends ControlPlaneComponent {
  certSANs?: string[];
  disablePodSecurityPolicy?: boolean;
  admissionControl?: { name?: string; configuration?: Record<string, unknown> }[];
  auditPolicy?: Record<string, unknown>;
  authorizationConfig?: { type?: string; name?: string; webhook?: Record<string, unknown> }[];
}
export interface EtcdConfig {
  image?: string;
  ca?: CertAndKey;
  extraArgs?: Record<string, string>;
  subnet?: string;
  advertisedSubnets?: string[];
  listenSubnets?: string[];
}
export interface ClusterNetworkConfig {
  cni?: {
    name?: string;
    urls?: string[];
    flannel?: { extraArgs?: string[]; kubeNetworkPoliciesEnabled?: boolean };
  };
  dnsDomain?: string;
  podSubnets?: string[];
  serviceSubnets?: string[];
}
export interface DiscoveryConfig {
  enabled?: boolean;
  registries?: {
    kubernetes?: { disabled?: boolean };
    service?: { disabled?: boolean; endpoint?: string };
  };
}
export interface ClusterConfig {
  id?: string;
  secret?: string;
  controlPlane?: { endpoint?: string; localAPIServerPort?: number };
  clusterName?: string;
  network?: ClusterNetworkConfig;
  token?: string;
  aescbcEncryptionSecret?: string;
  secretboxEncryptionSecret?: string;
  ca?: CertAndKey;
  acceptedCAs?: { crt?: string }[];
  aggregatorCA?: CertAndKey;
  serviceAccount?: { key?: string };
  apiServer?: APIServerConfig;
  controllerManager?: ControlPlaneComponent;
  proxy?: { disabled?: boolean; image?: string; mode?: string; extraArgs?: Record<string, string> };
  scheduler?: ControlPlaneComponent & { config?: Record<string, unknown> };
  discovery?: DiscoveryConfig;
  etcd?: EtcdConfig;
  coreDNS?: { disabled?: boolean; image?: string };
  externalCloudProvider?: { enabled?: boolean; manifests?: string[] };
  extraManifests?: string[];
  extraManifestHeaders?: Record<string, string>;
  inlineManifests?: { name?: string; contents?: string }[];
  adminKubeconfig?: { certLifetime?: string };
  allowSchedulingOnMasters?: boolean;
  allowSchedulingOnControlPlanes?: boolean;
}

const volumeMount = struct({ hostPath: str, mountPath: str, readonly: bool });
const resources = struct({ requests: unstructured, limits: unstructured });
const component = {
  image: str,
  extraArgs: map(),
  extraVolumes: list(volumeMount),
  env: map(),
};

export const clusterSchema: Schema = struct({
  id: str,
  secret: str,
  controlPlane: struct({ endpoint: str, localAPIServerPort: int }),
  clusterName: str,
  network: struct({
    cni: struct({
      name: str,
      urls: list(str),
      flannel: struct({ extraArgs: list(str), kubeNetworkPoliciesEnabled: bool }),
    }),
    dnsDomain: str,
    podSubnets: list(str, 'replace'),
    serviceSubnets: list(str, 'replace'),
  }),
  token: str,
  aescbcEncryptionSecret: str,
  secretboxEncryptionSecret: str,
  ca: certAndKey,
  acceptedCAs: list(certOnly),
  aggregatorCA: certAndKey,
  serviceAccount: keyOnly,
  apiServer: struct({
    ...component,
    certSANs: list(str),
    disablePodSecurityPolicy: bool,
    admissionControl: list(struct({ name: str, configuration: unstructured }), { key: keyedBy('name') }),
    auditPolicy: unstructuredReplaced,
    resources,
    authorizationConfig: list(struct({ type: str, name: str, webhook: unstructured })),
  }),
  controllerManager: struct({ ...component, resources }),
  proxy: struct({ disabled: bool, image: str, mode: str, extraArgs: map() }),
  scheduler: struct({ ...component, resources, config: unstructured }),
  discovery: struct({
    enabled: bool,
    registries: struct({
      kubernetes: struct({ disabled: bool }),
      service: struct({ disabled: bool, endpoint: str }),
    }),
  }),
  etcd: struct({
    image: str,
    ca: certAndKey,
    extraArgs: map(),
    subnet: str,
    advertisedSubnets: list(str),
    listenSubnets: list(str),
  }),
  coreDNS: struct({ disabled: bool, image: str }),
  externalCloudProvider: struct({ enabled: bool, manifests: list(str) }),
  extraManifests: list(str),
  extraManifestHeaders: map(),
  inlineManifests: list(struct({ name: str, contents: str })),
  adminKubeconfig: struct({ certLifetime: str }),
  allowSchedulingOnMasters: bool,
  allowSchedulingOnControlPlanes: bool,
});
