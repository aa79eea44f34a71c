// resources/secrets: root secrets (CAs, tokens), SAN sets and the certificates minted from them.
// Every type is sensitive; registerSecretsResources records their definitions so the API can serve them.
import { registerResource } from '../../src/cosi/resource/meta/index.js';
import { defaultRegistry } from '../../src/cosi/resource/registry.js';
import type { ResourceType } from '../../src/cosi/resource/typed.js';
import type { SignalOptions } from '../../src/cosi/state/core.js';
import type { State } from '../../src/cosi/state/state.js';
import { API } from './api.js';
import { CertSAN } from './cert-sans.js';
import { Etcd } from './etcd.js';
import { EtcdRoot } from './etcd-root.js';
import { Kubelet } from './kubelet.js';
import { Kubernetes } from './kubernetes.js';
import { KubernetesDynamicCerts } from './kubernetes-dynamic-certs.js';
import { KubernetesRoot } from './kubernetes-root.js';
import { MaintenanceRoot } from './maintenance-root.js';
import { OSRoot } from './os-root.js';
import { Trustd } from './trustd.js';

export * from './api.js';
export * from './cert-sans.js';
export * from './etcd.js';
export * from './etcd-root.js';
export type { CertificateAndKey, PEMCertificate, PEMEncodedKey } from './fields.js';
export * from './kubelet.js';
export * from './kubernetes.js';
export * from './kubernetes-dynamic-certs.js';
export * from './kubernetes-root.js';
export * from './maintenance-root.js';
export * from './namespace.js';
export * from './os-root.js';
export * from './trustd.js';

export const SECRETS_TYPES = [
  OSRoot,
  EtcdRoot,
  KubernetesRoot,
  MaintenanceRoot,
  CertSAN,
  API,
  Trustd,
  Etcd,
  Kubernetes,
  KubernetesDynamicCerts,
  Kubelet,
] as const;

/** registerSecretsResources records the definitions of the secrets types in a state. */
export async function registerSecretsResources(state: State, opts: SignalOptions = {}): Promise<void> {
  for (const t of SECRETS_TYPES) await registerResource(state, t, opts);
}

// decoders (gRPC, YAML) rebuild these types from the process-wide registry, as upstream's init() does
for (const t of SECRETS_TYPES) defaultRegistry.register(t as ResourceType<unknown>);
