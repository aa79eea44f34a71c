// v1alpha1 `machine:` section, in upstream key order.
import { type CertAndKey, certAndKey, certOnly } from '../common.js';
import {
  bool,
  filemode,
  int,
  list,
  map,
  type Schema,
  str,
  struct,
  unstructured,
  unstructuredReplaced,
} from '../schema.js';
import { type NetworkConfig, networkSchema } from './network.js';

export interface KubeletConfig {
  image?: string;
  clusterDNS?: string[];
  extraArgs?: Record<string, string>;
  extraMounts?: { destination?: string; type?: string; source?: string; options?: string[] }[];
  extraConfig?: Record<string, unknown>;
  credentialProviderConfig?: Record<string, unknown>;
  defaultRuntimeSeccompProfileEnabled?: boolean;
  registerWithFQDN?: boolean;
  nodeIP?: { validSubnets?: string[] };
  skipNodeRegistration?: boolean;
  disableManifestsDirectory?: boolean;
}
/** InstallDiskSelector picks the install disk by its properties; `size` is an expression like `>= 100GB`. */
export interface InstallDiskSelector {
  size?: string;
  name?: string;
  model?: string;
  serial?: string;
  modalias?: string;
  uuid?: string;
  wwid?: string;
  type?: string;
  busPath?: string;
}
export interface LoggingDestination {
  endpoint?: string;
  format?: string;
  extraTags?: Record<string, string>;
}
export interface MachineDisk {
  device?: string;
  partitions?: { size?: string; mountpoint?: string }[];
}
export interface InstallConfig {
  disk?: string;
  diskSelector?: InstallDiskSelector;
  extraKernelArgs?: string[];
  image?: string;
  extensions?: { image?: string }[];
  bootloader?: boolean;
  wipe?: boolean;
  legacyBIOSSupport?: boolean;
  grubUseUKICmdline?: boolean;
}
export interface MachineFile {
  content?: string;
  permissions?: number;
  path?: string;
  op?: string;
}
export interface TimeConfig {
  disabled?: boolean;
  servers?: string[];
  bootTimeout?: string;
}
export interface V1EncryptionKey {
  static?: { passphrase?: string };
  nodeID?: Record<string, never>;
  kms?: { endpoint?: string };
  slot?: number;
  tpm?: Record<string, unknown>;
}
export interface V1Encryption {
  provider?: string;
  keys?: V1EncryptionKey[];
  cipher?: string;
  keySize?: number;
  blockSize?: number;
  options?: string[];
}
export interface FeaturesConfig {
  rbac?: boolean;
  stableHostname?: boolean;
  kubernetesTalosAPIAccess?: {
    enabled?: boolean;
    allowedRoles?: string[];
    allowedKubernetesNamespaces?: string[];
  };
  apidCheckExtKeyUsage?: boolean;
  diskQuotaSupport?: boolean;
  kubePrism?: { enabled?: boolean; port?: number };
  hostDNS?: { enabled?: boolean; forwardKubeDNSToHost?: boolean; resolveMemberNames?: boolean };
  imageCache?: { localEnabled?: boolean };
  nodeAddressSortAlgorithm?: string;
}
export interface MachineConfig {
  type?: string;
  token?: string;
  ca?: CertAndKey;
  acceptedCAs?: { crt?: string }[];
  certSANs?: string[];
  controlPlane?: { controllerManager?: { disabled?: boolean }; scheduler?: { disabled?: boolean } };
  kubelet?: KubeletConfig;
  pods?: unknown[];
  network?: NetworkConfig;
  disks?: MachineDisk[];
  install?: InstallConfig;
  files?: MachineFile[];
  env?: Record<string, string>;
  time?: TimeConfig;
  sysctls?: Record<string, string>;
  sysfs?: Record<string, string>;
  registries?: unknown;
  systemDiskEncryption?: { state?: V1Encryption; ephemeral?: V1Encryption };
  features?: FeaturesConfig;
  udev?: unknown;
  logging?: { destinations?: LoggingDestination[] };
  kernel?: unknown;
  seccompProfiles?: unknown[];
  baseRuntimeSpecOverrides?: unknown;
  nodeLabels?: Record<string, string>;
  nodeAnnotations?: Record<string, string>;
  nodeTaints?: Record<string, string>;
}

const v1Encryption = struct({
  provider: str,
  keys: list(
    struct({
      static: struct({ passphrase: str }),
      nodeID: struct({}),
      kms: struct({ endpoint: str }),
      slot: int,
      tpm: unstructured,
    }),
  ),
  cipher: str,
  keySize: int,
  blockSize: int,
  options: list(str),
});

export const machineSchema: Schema = struct({
  type: str,
  token: str,
  ca: certAndKey,
  acceptedCAs: list(certOnly),
  certSANs: list(str),
  controlPlane: struct({
    controllerManager: struct({ disabled: bool }),
    scheduler: struct({ disabled: bool }),
  }),
  kubelet: struct({
    image: str,
    clusterDNS: list(str),
    extraArgs: map(),
    extraMounts: list(
      struct({
        destination: str,
        type: str,
        source: str,
        options: list(str),
        uidMappings: unstructured,
        gidMappings: unstructured,
      }),
    ),
    extraConfig: unstructured,
    credentialProviderConfig: unstructured,
    defaultRuntimeSeccompProfileEnabled: bool,
    registerWithFQDN: bool,
    nodeIP: struct({ validSubnets: list(str) }),
    skipNodeRegistration: bool,
    disableManifestsDirectory: bool,
  }),
  pods: list(unstructured),
  network: networkSchema,
  disks: list(struct({ device: str, partitions: list(struct({ mountpoint: str, size: str })) })),
  install: struct({
    disk: str,
    diskSelector: struct({
      size: str,
      name: str,
      model: str,
      serial: str,
      modalias: str,
      uuid: str,
      wwid: str,
      type: str,
      busPath: str,
    }),
    extraKernelArgs: list(str),
    image: str,
    extensions: list(struct({ image: str })),
    bootloader: bool,
    wipe: bool,
    legacyBIOSSupport: bool,
    grubUseUKICmdline: bool,
  }),
  files: list(struct({ content: str, permissions: filemode, path: str, op: str })),
  env: map(),
  time: struct({ disabled: bool, servers: list(str), bootTimeout: str }),
  sysctls: map(),
  sysfs: map(),
  registries: unstructured,
  systemDiskEncryption: struct({ state: v1Encryption, ephemeral: v1Encryption }),
  features: struct({
    rbac: bool,
    stableHostname: bool,
    kubernetesTalosAPIAccess: struct({
      enabled: bool,
      allowedRoles: list(str),
      allowedKubernetesNamespaces: list(str),
    }),
    apidCheckExtKeyUsage: bool,
    diskQuotaSupport: bool,
    kubePrism: struct({ enabled: bool, port: int }),
    hostDNS: struct({ enabled: bool, forwardKubeDNSToHost: bool, resolveMemberNames: bool }),
    imageCache: struct({ localEnabled: bool }),
    nodeAddressSortAlgorithm: str,
  }),
  udev: unstructured,
  logging: struct({ destinations: list(struct({ endpoint: str, format: str, extraTags: map() })) }),
  kernel: unstructured,
  seccompProfiles: list(unstructured),
  baseRuntimeSpecOverrides: unstructuredReplaced,
  nodeLabels: map(),
  nodeAnnotations: map(),
  nodeTaints: map(),
});
