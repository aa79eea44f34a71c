// secrets.KubeletController: KubeletSecrets(secrets/kubelet), what the kubelet needs to join the
// cluster through TLS bootstrap, on every node.

import { MachineConfig } from '../../resources/config/machine-config.js';
import { isControlPlane } from '../../resources/config/machine-type.js';
import { KUBELET_ID, Kubelet, type KubeletSpec } from '../../resources/secrets/index.js';
import { accessors, type Config, DEFAULT_KUBEPRISM_PORT } from '../../src/config/index.js';
import { transformController } from '../../src/cosi/controller/generic/index.js';
import { activeConfigMap } from '../config/active-config-map.js';
import { configOf } from '../config/config-of.js';
import { configRef, pemCerts, pemPair } from './internal/config.js';
import { SecretsError } from './internal/errors.js';
import { DEFAULT_LOCAL_API_SERVER_PORT } from './root-kubernetes.js';

/** KubeletController derives the kubelet's endpoint, trusted CAs and bootstrap token. */
export const KubeletController = transformController({
  name: 'secrets.KubeletController',
  input: MachineConfig,
  output: Kubelet,
  mapOptional: activeConfigMap(KUBELET_ID, false),
  transform: (_rt, cfg, out) => {
    Object.assign(out.spec, kubeletSecretsOf(configOf(cfg.spec)));
  },
});

/**
 * kubeletSecretsOf: the endpoint is KubePrism when enabled, else the local API server on a control
 * plane node, else the cluster endpoint; trusted CAs are cluster.acceptedCAs plus cluster.ca.
 */
export function kubeletSecretsOf(cfg: Config): KubeletSpec {
  const m = accessors(cfg);
  const c = m.cluster();
  const prism = m.features().kubePrism;
  const endpoint = prism?.enabled
    ? `https://127.0.0.1:${prism.port ?? DEFAULT_KUBEPRISM_PORT}`
    : isControlPlane(m.machineType())
      ? `https://localhost:${c.controlPlane?.localAPIServerPort ?? DEFAULT_LOCAL_API_SERVER_PORT}`
      : (c.controlPlane?.endpoint ?? null);
  const acceptedCAs = pemCerts(c.acceptedCAs);
  const ca = pemPair(c.ca);
  if (ca) acceptedCAs.push({ crt: ca.crt });
  if (acceptedCAs.length === 0)
    throw new SecretsError('missing-secret', configRef, 'missing cluster.ca secret');
  const [bootstrapTokenID = '', bootstrapTokenSecret = ''] = (c.token ?? '').split('.');
  return { endpoint, acceptedCAs, bootstrapTokenID, bootstrapTokenSecret };
}
