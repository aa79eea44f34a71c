// secrets.RootKubernetesController: KubernetesRootSecrets(secrets/k8s) from the machine config,
// control plane only.
import { MachineConfig } from '../../resources/config/machine-config.js';
import {
  KUBERNETES_ROOT_ID,
  KubernetesRoot,
  type KubernetesRootSpec,
} from '../../resources/secrets/index.js';
import {
  accessors,
  type Config,
  DEFAULT_DNS_DOMAIN,
  DEFAULT_KUBEPRISM_PORT,
  DEFAULT_SERVICE_SUBNETS,
} from '../../src/config/index.js';
import { transformController } from '../../src/cosi/controller/generic/index.js';
import { activeConfigMap } from '../config/active-config-map.js';
import { configOf } from '../config/config-of.js';
import { nthIP, parsePrefix } from '../network/internal/ip.js';
import { configRef, pemCerts, pemKey, pemPair } from './internal/config.js';
import { SecretsError } from './internal/errors.js';

/** The API server's port on the node when cluster.controlPlane.localAPIServerPort is unset. */
export const DEFAULT_LOCAL_API_SERVER_PORT = 6443;

/** RootKubernetesController publishes the Kubernetes root secrets of a control plane node. */
export const RootKubernetesController = transformController({
  name: 'secrets.RootKubernetesController',
  input: MachineConfig,
  output: KubernetesRoot,
  mapOptional: activeConfigMap(KUBERNETES_ROOT_ID, true),
  transform: (_rt, cfg, out) => {
    Object.assign(out.spec, kubernetesRootOf(configOf(cfg.spec)));
  },
});

/** kubernetesRootOf collects the cluster's identity, endpoints, CAs, keys and tokens from a config. */
export function kubernetesRootOf(cfg: Config): KubernetesRootSpec {
  const m = accessors(cfg);
  const c = m.cluster();
  const prism = m.features().kubePrism;
  const localEndpoint = prism?.enabled
    ? `https://127.0.0.1:${prism.port ?? DEFAULT_KUBEPRISM_PORT}`
    : `https://localhost:${c.controlPlane?.localAPIServerPort ?? DEFAULT_LOCAL_API_SERVER_PORT}`;
  const aggregatorCA = pemPair(c.aggregatorCA);
  if (!aggregatorCA)
    throw new SecretsError('missing-secret', configRef, 'missing cluster.aggregatorCA secret');
  const ca = pemPair(c.ca);
  const acceptedCAs = pemCerts(c.acceptedCAs);
  if (ca) acceptedCAs.push({ crt: ca.crt });
  if (acceptedCAs.length === 0)
    throw new SecretsError('missing-secret', configRef, 'missing cluster.ca secret');
  const [tokenID = '', tokenSecret = ''] = (c.token ?? '').split('.');
  return {
    name: c.clusterName ?? '',
    endpoint: c.controlPlane?.endpoint ?? null,
    localEndpoint,
    certSANs: [...(c.apiServer?.certSANs ?? [])],
    apiServerIPs: apiServerIPs(c.network?.serviceSubnets ?? DEFAULT_SERVICE_SUBNETS),
    dnsDomain: c.network?.dnsDomain ?? DEFAULT_DNS_DOMAIN,
    issuingCA: ca?.key ? ca : null,
    acceptedCAs,
    serviceAccount: pemKey(c.serviceAccount),
    aggregatorCA,
    aesCBCEncryptionSecret: c.aescbcEncryptionSecret ?? '',
    bootstrapTokenID: tokenID,
    bootstrapTokenSecret: tokenSecret,
    secretboxEncryptionSecret: c.secretboxEncryptionSecret ?? '',
  };
}

/** apiServerIPs is the first host address of each service CIDR: the `kubernetes` Service's IP. */
export function apiServerIPs(serviceSubnets: readonly string[]): string[] {
  return serviceSubnets.map((cidr) => {
    const p = parsePrefix(cidr);
    const ip = p && nthIP(p, 1);
    if (!ip)
      throw new SecretsError(
        'invalid-secret',
        configRef,
        `cluster.network.serviceSubnets: ${cidr}: not a CIDR`,
      );
    return ip;
  });
}
