// Builds the controlplane and worker configs as talosctl v1.13.0 writes them without comments: a
// v1alpha1 document plus HostnameConfig{auto: stable}, each field gated as upstream's generator gates it.
// Pure: secrets come in, Configs come out.
import { type Config, newConfig } from '../container.js';
import type { ConfigDocument } from '../document.js';
import { ConfigError, ConfigErrors } from '../errors.js';
import type { HostnameConfig } from '../types/hostname-config/hostname-config.js';
import type { ClusterConfig } from '../types/v1alpha1/cluster.js';
import type { V1Alpha1Config } from '../types/v1alpha1/config.js';
import type { MachineConfig } from '../types/v1alpha1/machine.js';
import { isURL } from '../validate/formats.js';
import { type ContractGates, gatesOf, parseContract } from './contract.js';
import {
  DEFAULT_DNS_DOMAIN,
  DEFAULT_INSTALL_DISK,
  DEFAULT_INSTALLER_IMAGE,
  DEFAULT_KUBEPRISM_PORT,
  DEFAULT_KUBERNETES_VERSION,
  DEFAULT_POD_SUBNETS,
  DEFAULT_SERVICE_SUBNETS,
  type GenerateInput,
} from './options.js';
import { defaultAuditPolicy, podSecurityAdmission } from './policies.js';

export interface GeneratedConfigs {
  readonly controlplane: Config;
  readonly worker: Config;
}

type Role = 'controlplane' | 'worker';

/** generateConfigs returns the controlplane and worker configs for one cluster. */
export function generateConfigs(input: GenerateInput): GeneratedConfigs {
  const url = checkEndpoint(input.endpoint);
  const gates = gatesOf(input.talosVersion === undefined ? undefined : parseContract(input.talosVersion));
  const at = { input, url, gates };
  return { controlplane: build(at, 'controlplane'), worker: build(at, 'worker') };
}

interface Context {
  readonly input: GenerateInput;
  readonly url: URL;
  readonly gates: ContractGates;
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

/** image is upstream's emptyIf: no Kubernetes version, no image field. */
const image = (repo: string, k8s: string) => (k8s === '' ? {} : { image: `${repo}:v${k8s}` });
/** nonEmpty drops an empty string, as yaml omitempty does. */
const nonEmpty = <K extends string>(key: K, v: string): Partial<Record<K, string>> =>
  v === '' ? {} : ({ [key]: v } as Record<K, string>);

function build({ input, url, gates }: Context, role: Role): Config {
  const s = input.secrets;
  const k8s = (input.kubernetesVersion ?? DEFAULT_KUBERNETES_VERSION).replace(/^v/, '');
  const cp = role === 'controlplane';
  const machine: MachineConfig = {
    type: role,
    token: s.trustdinfo.token,
    ca: { crt: s.certs.os.crt, key: cp ? s.certs.os.key : '' },
    // upstream copies the list as given: neither deduplicated nor sorted
    certSANs: [...(input.additionalSANs ?? [])],
    kubelet: {
      ...image('ghcr.io/siderolabs/kubelet', k8s),
      defaultRuntimeSeccompProfileEnabled: true,
      disableManifestsDirectory: true,
    },
    // machine.network is written empty only for contracts without the KubeSpan document
    ...(gates.kubeSpanMultidocConfig ? {} : { network: {} }),
    install: {
      ...nonEmpty('disk', input.installDisk ?? DEFAULT_INSTALL_DISK),
      ...nonEmpty('image', input.installImage ?? DEFAULT_INSTALLER_IMAGE),
      wipe: false,
      ...(gates.grubUseUKICmdlineDefault ? { grubUseUKICmdline: true } : {}),
    },
    features: {
      ...(gates.hideRBACAndKeyUsage ? {} : { rbac: true, apidCheckExtKeyUsage: true }),
      ...(gates.multidocNetworkConfigSupported ? {} : { stableHostname: true }),
      diskQuotaSupport: true,
      kubePrism: { enabled: true, port: DEFAULT_KUBEPRISM_PORT },
      hostDNS: {
        enabled: true,
        ...(gates.hostDNSForwardKubeDNSToHost ? { forwardKubeDNSToHost: true } : {}),
      },
    },
    ...(cp && gates.addExcludeFromExternalLoadBalancer
      ? { nodeLabels: { 'node.kubernetes.io/exclude-from-external-load-balancers': '' } }
      : {}),
  };
  const cluster: ClusterConfig = {
    id: s.cluster.id,
    secret: s.cluster.secret,
    // the endpoint as given: WHATWG URL serialisation would lowercase the host and drop :443
    controlPlane: { endpoint: input.endpoint },
    ...(cp || gates.clusterNameForWorkers ? { clusterName: input.clusterName } : {}),
    network: {
      dnsDomain: input.dnsDomain ?? DEFAULT_DNS_DOMAIN,
      podSubnets: [...DEFAULT_POD_SUBNETS],
      serviceSubnets: [...DEFAULT_SERVICE_SUBNETS],
    },
    token: s.secrets.bootstraptoken,
    ...(cp ? controlPlaneOnly(input, url, gates, k8s) : { ca: { crt: s.certs.k8s.crt, key: '' } }),
    discovery: {
      enabled: input.discovery ?? true,
      registries: { kubernetes: { disabled: true }, service: {} },
    },
    // extraManifests and inlineManifests are set empty upstream, and yaml.v3 omits empty lists
    ...(cp ? { etcd: { ca: s.certs.etcd } } : {}),
  };
  const v1: V1Alpha1Config = { version: 'v1alpha1', debug: false, persist: true, machine, cluster };
  const documents: ConfigDocument[] = [{ kind: 'v1alpha1', spec: v1, lines: new Map() }];
  if (gates.multidocNetworkConfigSupported) {
    const hostname: HostnameConfig = { apiVersion: 'v1alpha1', kind: 'HostnameConfig', auto: 'stable' };
    documents.push({ kind: 'HostnameConfig', spec: hostname, lines: new Map() });
  }
  return newConfig(documents);
}

function controlPlaneOnly(
  input: GenerateInput,
  url: URL,
  gates: ContractGates,
  k8s: string,
): Partial<ClusterConfig> {
  const s = input.secrets;
  const box = s.secrets.secretboxencryptionsecret;
  // older contracts also put the endpoint's host first; url.hostname keeps IPv6 brackets, Go's does not
  const sans = [
    ...(gates.populateClusterSANsFromEndpoint ? [url.hostname.replace(/^\[|\]$/g, '')] : []),
    ...(input.additionalSANs ?? []),
  ];
  return {
    // Keel keeps an AES-CBC-only bundle's secret rather than writing a config without one
    ...(box
      ? { secretboxEncryptionSecret: box }
      : { aescbcEncryptionSecret: s.secrets.aescbcencryptionsecret ?? '' }),
    ca: s.certs.k8s,
    aggregatorCA: s.certs.k8saggregator,
    serviceAccount: { key: s.certs.k8sserviceaccount.key },
    apiServer: {
      ...image('registry.k8s.io/kube-apiserver', k8s),
      ...(sans.length > 0 ? { certSANs: sans } : {}),
      ...(gates.hideDisablePSP ? {} : { disablePodSecurityPolicy: true }),
      admissionControl: [{ name: 'PodSecurity', configuration: podSecurityAdmission() }],
      auditPolicy: defaultAuditPolicy(),
    },
    controllerManager: image('registry.k8s.io/kube-controller-manager', k8s),
    proxy: image('registry.k8s.io/kube-proxy', k8s),
    scheduler: image('registry.k8s.io/kube-scheduler', k8s),
  };
}
