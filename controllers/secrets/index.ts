// controllers/secrets: root secrets from the machine config, SAN sets from the node's identity, and
// the certificates minted from both, each re-issued when its SANs change or at half its lifetime.
import type { Controller } from '../../src/cosi/controller/index.js';
import { newAPIController } from './api.js';
import { APICertSANsController } from './api-cert-sans.js';
import { newEtcdController } from './etcd.js';
import type { SecretsControllerOptions } from './internal/clock.js';
import { KubeletController } from './kubelet.js';
import { newKubernetesController } from './kubernetes.js';
import { KubernetesCertSANsController } from './kubernetes-cert-sans.js';
import { newKubernetesDynamicCertsController } from './kubernetes-dynamic-certs.js';
import { MaintenanceCertSANsController } from './maintenance-cert-sans.js';
import { newMaintenanceRootController } from './maintenance-root.js';
import { RootEtcdController } from './root-etcd.js';
import { RootKubernetesController } from './root-kubernetes.js';
import { RootOSController } from './root-os.js';
import { newTrustdController } from './trustd.js';

export * from './api.js';
export * from './api-cert-sans.js';
export * from './etcd.js';
export { type SecretsClock, type SecretsControllerOptions, systemSecretsClock } from './internal/clock.js';
export { isMissingSecret, SecretsError, type SecretsErrorCode } from './internal/errors.js';
export { type Interruptible, untilWokenUp } from './internal/interruptible.js';
export {
  ensureLeaf,
  type LeafTemplate,
  nextRenewalMs,
  type ReissueReason,
  reissueReason,
} from './internal/leaf.js';
export { CERT_NODE_ADDRESS_ID } from './internal/node.js';
export { type RenewalTimer, renewalTimer } from './internal/refresh.js';
export * from './kubelet.js';
export * from './kubernetes.js';
export * from './kubernetes-cert-sans.js';
export * from './kubernetes-dynamic-certs.js';
export * from './maintenance-cert-sans.js';
export * from './maintenance-root.js';
export * from './root-etcd.js';
export * from './root-kubernetes.js';
export * from './root-os.js';
export * from './trustd.js';

/**
 * secretsControllers builds the whole set on one clock, in the order machined registers them; `trustdPort`
 * is where a worker asks its control planes (a container node's may differ from upstream's 50001).
 */
export const secretsControllers = (
  opts: SecretsControllerOptions & { readonly trustdPort?: number } = {},
): Controller[] => [
  RootOSController,
  RootEtcdController,
  RootKubernetesController,
  newMaintenanceRootController(opts),
  APICertSANsController,
  KubernetesCertSANsController,
  MaintenanceCertSANsController,
  newAPIController(opts),
  newTrustdController(opts),
  newEtcdController(opts),
  newKubernetesDynamicCertsController(opts),
  newKubernetesController(opts),
  KubeletController,
];
