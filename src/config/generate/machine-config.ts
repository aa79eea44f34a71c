// Builds the controlplane and worker configs as talosctl v1.13 writes them: a v1alpha1 document plus
// HostnameConfig{auto: stable}. Pure: secrets come in, Configs come out.
import { type Config, newConfig } from '../container.js';
import type { ConfigDocument } from '../document.js';
import { ConfigError, ConfigErrors } from '../errors.js';
import type { HostnameConfig } from '../types/hostname-config/hostname-config.js';
import type { ClusterConfig } from '../types/v1alpha1/cluster.js';
import type { V1Alpha1Config } from '../types/v1alpha1/config.js';
import type { MachineConfig } from '../types/v1alpha1/machine.js';
import { isURL } from '../validate/formats.js';
import {
  DEFAULT_DNS_DOMAIN,
  DEFAULT_INSTALL_DISK,
  DEFAULT_KUBEPRISM_PORT,
  DEFAULT_KUBERNETES_VERSION,
  DEFAULT_POD_SUBNETS,
  DEFAULT_SERVICE_SUBNETS,
  DEFAULT_TALOS_VERSION,
  type GenerateInput,
} from './options.js';
import { defaultAuditPolicy, podSecurityAdmission } from './policies.js';

export interface GeneratedConfigs {
  readonly controlplane: Config;
  readonly worker: Config;
}

/** generateConfigs returns the controlplane and worker configs for one cluster. */
export function generateConfigs(input: GenerateInput): GeneratedConfigs {
  const url = checkEndpoint(input.endpoint);
  return { controlplane: build(input, url, 'controlplane'), worker: build(input, url, 'worker') };
}

function checkEndpoint(endpoint: string): URL {
  if (!isURL(endpoint, ['https']))
    throw new ConfigErrors([
      new ConfigError(
        'invalid',
        'gen config',
        'endpoint',
        undefined,
        `${JSON.stringify(endpoint)} is not an https:// URL, e.g. https://10.5.0.2:6443`,
      ),
    ]);
  return new URL(endpoint);
}

function build(input: GenerateInput, url: URL, type: 'controlplane' | 'worker'): Config {
  const s = input.secrets;
  const k8s = input.kubernetesVersion?.replace(/^v/, '') ?? DEFAULT_KUBERNETES_VERSION;
  const talos = input.talosVersion ?? DEFAULT_TALOS_VERSION;
  const cp = type === 'controlplane';
  const sans = [...new Set(input.additionalSANs ?? [])];
  const machine: MachineConfig = {
    type,
    token: s.trustdinfo.token,
    ca: { crt: s.certs.os.crt, key: cp ? s.certs.os.key : '' },
    certSANs: sans,
    kubelet: {
      image: `ghcr.io/siderolabs/kubelet:v${k8s}`,
      defaultRuntimeSeccompProfileEnabled: true,
      disableManifestsDirectory: true,
    },
    network: {},
    install: {
      disk: input.installDisk ?? DEFAULT_INSTALL_DISK,
      image: input.installImage ?? `ghcr.io/siderolabs/installer:${talos}`,
      wipe: false,
      grubUseUKICmdline: true,
    },
    registries: {},
    features: {
      rbac: true,
      apidCheckExtKeyUsage: true,
      diskQuotaSupport: true,
      kubePrism: { enabled: true, port: DEFAULT_KUBEPRISM_PORT },
      hostDNS: { enabled: true, forwardKubeDNSToHost: true },
    },
    ...(cp ? { nodeLabels: { 'node.kubernetes.io/exclude-from-external-load-balancers': '' } } : {}),
  };
  const discovery = input.discovery ?? true;
  const cluster: ClusterConfig = {
    id: s.cluster.id,
    secret: s.cluster.secret,
    controlPlane: { endpoint: url.toString().replace(/\/$/, '') },
    clusterName: input.clusterName,
    network: {
      dnsDomain: input.dnsDomain ?? DEFAULT_DNS_DOMAIN,
      podSubnets: [...DEFAULT_POD_SUBNETS],
      serviceSubnets: [...DEFAULT_SERVICE_SUBNETS],
    },
    token: s.secrets.bootstraptoken,
    ...(cp ? controlPlaneOnly(input, url, k8s) : { ca: { crt: s.certs.k8s.crt, key: '' } }),
    discovery: {
      enabled: discovery,
      registries: { kubernetes: { disabled: true }, service: {} },
    },
    ...(cp ? { etcd: { ca: s.certs.etcd }, extraManifests: [], inlineManifests: [] } : {}),
  };
  const v1: V1Alpha1Config = { version: 'v1alpha1', debug: false, persist: true, machine, cluster };
  const hostname: HostnameConfig = { apiVersion: 'v1alpha1', kind: 'HostnameConfig', auto: 'stable' };
  const documents: ConfigDocument[] = [
    { kind: 'v1alpha1', spec: v1, lines: new Map() },
    { kind: 'HostnameConfig', spec: hostname, lines: new Map() },
  ];
  return newConfig(documents);
}

function controlPlaneOnly(input: GenerateInput, url: URL, k8s: string): Partial<ClusterConfig> {
  const s = input.secrets;
  const box = s.secrets.secretboxencryptionsecret;
  return {
    ...(box
      ? { secretboxEncryptionSecret: box }
      : { aescbcEncryptionSecret: s.secrets.aescbcencryptionsecret ?? '' }),
    ca: s.certs.k8s,
    aggregatorCA: s.certs.k8saggregator,
    serviceAccount: { key: s.certs.k8sserviceaccount.key },
    apiServer: {
      image: `registry.k8s.io/kube-apiserver:v${k8s}`,
      certSANs: [...new Set([url.hostname.replace(/^\[|\]$/g, ''), ...(input.additionalSANs ?? [])])],
      disablePodSecurityPolicy: true,
      admissionControl: [{ name: 'PodSecurity', configuration: podSecurityAdmission() }],
      auditPolicy: defaultAuditPolicy(),
    },
    controllerManager: { image: `registry.k8s.io/kube-controller-manager:v${k8s}` },
    proxy: { image: `registry.k8s.io/kube-proxy:v${k8s}` },
    scheduler: { image: `registry.k8s.io/kube-scheduler:v${k8s}` },
  };
}
