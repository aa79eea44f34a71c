// The kube-apiserver static pod, as upstream's (v1.13) manageAPIServer: its arguments (the argsbuilder
// merge of the user's extra arguments, the file flags refused), the authorization flags by version, the
// secrets, config and audit log directories, and NET_BIND_SERVICE kept for the binary's file capability.
import type { APIServerConfigSpec } from '../../../resources/k8s/index.js';
import { inPod, POD_AUDIT_LOG_DIR, type StaticPodDirs } from '../static-pod-paths.js';
import { type Args, argList, type MergePolicy, mergeArgs } from './args.js';
import {
  cloudProviderFlagRemoved,
  type KubeVersion,
  structuredAuthorizationByDefault,
  supportsAuthorizationConfigFile,
  versionFromImageRef,
  versionString,
} from './kube-version.js';
import {
  ANNOTATION_CONFIG_FILE_VERSION,
  ANNOTATION_CONFIG_VERSION,
  ANNOTATION_SECRETS_VERSION,
  containerSecurity,
  envOf,
  extraMounts,
  extraVolumes,
  hostPathVolume,
  mount,
  type Obj,
  podResources,
  staticPod,
  TERMINATION_MESSAGE_POLICY,
} from './static-pod-common.js';

const ID = 'kube-apiserver';
const secret = (f: string) => inPod.secrets(ID, f);

/** TLS 1.2 kept for clients outside the cluster, with these suites only */
const TLS_CIPHER_SUITES = [
  'TLS_AES_128_GCM_SHA256',
  'TLS_AES_256_GCM_SHA384',
  'TLS_CHACHA20_POLY1305_SHA256',
  'TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256',
  'TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384',
  'TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305',
  'TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256',
  'TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256',
  'TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384',
  'TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305',
  'TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256',
].join(',');

const POLICIES: Record<string, MergePolicy> = {
  'enable-admission-plugins': 'additive',
  'feature-gates': 'additive',
  'authorization-mode': 'additive',
  'tls-cipher-suites': 'additive',
  ...Object.fromEntries(
    [
      'etcd-servers',
      'client-ca-file',
      'requestheader-client-ca-file',
      'proxy-client-cert-file',
      'proxy-client-key-file',
      'encryption-provider-config',
      'etcd-cafile',
      'etcd-certfile',
      'etcd-keyfile',
      'kubelet-client-certificate',
      'kubelet-client-key',
      'service-account-key-file',
      'service-account-signing-key-file',
      'tls-cert-file',
      'tls-private-key-file',
      'authorization-config',
    ].map((k) => [k, 'denied' as const]),
  ),
};

function baseArgs(cfg: APIServerConfigSpec): Args {
  const config = (f: string) => inPod.config(ID, f);
  return new Map(
    Object.entries({
      'admission-control-config-file': config('admission-control-config.yaml'),
      'allow-privileged': 'true',
      // no anonymous requests: they would reach /version and the like as system:unauthenticated
      'anonymous-auth': 'false',
      'api-audiences': cfg.controlPlaneEndpoint,
      'bind-address': '0.0.0.0',
      'client-ca-file': secret('ca.crt'),
      'enable-admission-plugins': 'NodeRestriction',
      'requestheader-client-ca-file': secret('aggregator-ca.crt'),
      'requestheader-allowed-names': 'front-proxy-client',
      'requestheader-extra-headers-prefix': 'X-Remote-Extra-',
      'requestheader-group-headers': 'X-Remote-Group',
      'requestheader-username-headers': 'X-Remote-User',
      'proxy-client-cert-file': secret('front-proxy-client.crt'),
      'proxy-client-key-file': secret('front-proxy-client.key'),
      'enable-bootstrap-token-auth': 'true',
      'tls-min-version': 'VersionTLS12',
      'tls-cipher-suites': TLS_CIPHER_SUITES,
      'encryption-provider-config': secret('encryptionconfig.yaml'),
      'audit-policy-file': config('auditpolicy.yaml'),
      'audit-log-path': `${POD_AUDIT_LOG_DIR}/kube-apiserver.log`,
      'audit-log-maxage': '30',
      'audit-log-maxbackup': '10',
      'audit-log-maxsize': '100',
      profiling: 'false',
      'etcd-cafile': secret('etcd-client-ca.crt'),
      'etcd-certfile': secret('etcd-client.crt'),
      'etcd-keyfile': secret('etcd-client.key'),
      'etcd-servers': cfg.etcdServers.join(','),
      'kubelet-client-certificate': secret('apiserver-kubelet-client.crt'),
      'kubelet-client-key': secret('apiserver-kubelet-client.key'),
      'secure-port': String(cfg.localPort),
      'service-account-issuer': cfg.controlPlaneEndpoint,
      'service-account-key-file': secret('service-account.pub'),
      'service-account-signing-key-file': secret('service-account.key'),
      'service-cluster-ip-range': cfg.serviceCIDRs.join(','),
      'tls-cert-file': secret('apiserver.crt'),
      'tls-private-key-file': secret('apiserver.key'),
      'kubelet-preferred-address-types': 'InternalIP,ExternalIP,Hostname',
    }).map(([k, v]) => [k, [v]]),
  );
}

/**
 * authorizationArgs: the user's own authorization mode or webhook flags, or an API server without the
 * config file (before 1.29), get `--authorization-mode=Node,RBAC` (merged additively); otherwise the
 * rendered authorization config, with its feature gate on 1.29.
 */
export function authorizationArgs(version: KubeVersion, extra: ReadonlyMap<string, readonly string[]>): Args {
  const userMode = extra.has('authorization-mode');
  const userWebhook = [...extra.keys()].some((k) => k.startsWith('authorization-webhook-'));
  if (userMode || userWebhook || !supportsAuthorizationConfigFile(version))
    return new Map([['authorization-mode', ['Node,RBAC']]]);
  const out: Args = new Map([['authorization-config', [inPod.config(ID, 'authorization-config.yaml')]]]);
  if (!structuredAuthorizationByDefault(version))
    out.set('feature-gates', ['StructuredAuthorizationConfiguration=true']);
  return out;
}

/** apiServerCommand is the container's command: the binary, then the merged arguments sorted. */
export function apiServerCommand(cfg: APIServerConfigSpec): string[] {
  const version = versionFromImageRef(cfg.image);
  const args = baseArgs(cfg);
  if (cfg.advertisedAddress) args.set('advertise-address', [cfg.advertisedAddress]);
  if (cfg.cloudProvider && !cloudProviderFlagRemoved(version))
    args.set('cloud-provider', [cfg.cloudProvider]);
  const extra = new Map(Object.entries(cfg.extraArgs).map(([k, v]) => [k, v.values]));
  for (const [k, v] of authorizationArgs(version, extra)) args.set(k, v);
  return ['/usr/local/bin/kube-apiserver', ...argList(mergeArgs(args, extra, POLICIES))];
}

export interface ControlPlaneVersions {
  /** SecretsStatus' version */
  readonly secrets: string;
  /** ConfigStatus' version (the rendered files) */
  readonly configFiles: string;
  /** the component config resource's version */
  readonly config: string;
}

/** apiServerPod is the whole v1 Pod; its host paths are where this node keeps the files. */
export function apiServerPod(
  cfg: APIServerConfigSpec,
  versions: ControlPlaneVersions,
  dirs: StaticPodDirs,
): Obj {
  const resources = podResources(cfg.resources, '200m', '512Mi');
  return staticPod({
    id: ID,
    version: versionString(versionFromImageRef(cfg.image)),
    annotations: {
      [ANNOTATION_SECRETS_VERSION]: versions.secrets,
      [ANNOTATION_CONFIG_FILE_VERSION]: versions.configFiles,
      [ANNOTATION_CONFIG_VERSION]: versions.config,
    },
    container: {
      name: ID,
      image: cfg.image,
      command: apiServerCommand(cfg),
      env: envOf(cfg.environmentVariables, resources),
      resources,
      volumeMounts: [
        mount('secrets', inPod.secrets(ID), true),
        mount('config', inPod.config(ID), true),
        mount('audit', POD_AUDIT_LOG_DIR, false),
        ...extraMounts(cfg.extraVolumes),
      ],
      terminationMessagePolicy: TERMINATION_MESSAGE_POLICY,
      // the binary carries cap_net_bind_service=+ep, so it cannot start without the capability
      securityContext: containerSecurity(['NET_BIND_SERVICE']),
    },
    volumes: [
      hostPathVolume('secrets', `${dirs.secretsDir}/${ID}`),
      hostPathVolume('config', `${dirs.configDir}/${ID}`),
      hostPathVolume('audit', dirs.auditLogDir),
      ...extraVolumes(cfg.extraVolumes),
    ],
  });
}
