// secrets.KubernetesDynamicCertsController: KubernetesDynamicCerts(secrets/k8s-dynamic-certs), the
// API server's serving certificate and its two client certificates.
import {
  CERT_SAN_KUBERNETES_ID,
  CertSAN,
  type CertSANSpec,
  KUBERNETES_DYNAMIC_CERTS_ID,
  KUBERNETES_ROOT_ID,
  KubernetesDynamicCerts,
  type KubernetesDynamicCertsSpec,
  KubernetesRoot,
  type KubernetesRootSpec,
} from '../../resources/secrets/index.js';
import { type Controller, type ControllerRuntime, input, output } from '../../src/cosi/controller/index.js';
import { type CertificateAndKey, type Issuer, loadIssuer, profiles } from '../../src/pki/index.js';
import { certificateController } from './internal/certificate-controller.js';
import { type SecretsClock, type SecretsControllerOptions, systemSecretsClock } from './internal/clock.js';
import { SecretsError } from './internal/errors.js';
import { ensureLeaf } from './internal/leaf.js';
import { destroyOwned } from './internal/teardown.js';

const NAME = 'secrets.KubernetesDynamicCertsController';

/** newKubernetesDynamicCertsController mints the certificates kube-apiserver reloads without a restart. */
export function newKubernetesDynamicCertsController({
  clock = systemSecretsClock,
}: SecretsControllerOptions = {}): Controller {
  return certificateController({
    name: NAME,
    inputs: [
      input(KubernetesRoot, { id: KUBERNETES_ROOT_ID }),
      input(CertSAN, { id: CERT_SAN_KUBERNETES_ID }),
    ],
    outputs: [output(KubernetesDynamicCerts, 'exclusive')],
    clock,
    reconcile,
  });
}

/** KubernetesDynamicCertsController runs on wall time. */
export const KubernetesDynamicCertsController = newKubernetesDynamicCertsController();

async function reconcile(
  rt: ControllerRuntime,
  clock: SecretsClock,
  signal: AbortSignal,
): Promise<(string | undefined)[]> {
  const root = await rt.getOrNull(KubernetesRoot, KUBERNETES_ROOT_ID, { signal });
  if (!root) {
    await destroyOwned(rt, KubernetesDynamicCerts, NAME, signal);
    return [];
  }
  const sans = await rt.getOrNull(CertSAN, CERT_SAN_KUBERNETES_ID, { signal });
  if (!sans) return [];
  const current = await rt.getOrNull(KubernetesDynamicCerts, KUBERNETES_DYNAMIC_CERTS_ID, { signal });
  const next = await kubernetesDynamicCerts(root.spec, sans.spec, current?.spec, clock.now(), signal);
  await rt.modify(KubernetesDynamicCerts, KUBERNETES_DYNAMIC_CERTS_ID, () => next, { signal });
  return [next.apiServer?.crt, next.apiServerKubeletClient?.crt, next.frontProxy?.crt];
}

/** kubernetesDynamicCerts keeps or re-issues each certificate on its own. */
export async function kubernetesDynamicCerts(
  root: KubernetesRootSpec,
  sans: CertSANSpec,
  current: KubernetesDynamicCertsSpec | undefined,
  now: Date,
  signal?: AbortSignal,
): Promise<KubernetesDynamicCertsSpec> {
  const k8s = rootIssuer(root.issuingCA, 'issuingCA');
  const aggregator = rootIssuer(root.aggregatorCA, 'aggregatorCA');
  const serving = profiles.kubeAPIServer({ dnsNames: sans.dnsNames, ipAddresses: sans.ips });
  const [apiServer, apiServerKubeletClient, frontProxy] = await Promise.all([
    ensureLeaf(current?.apiServer, serving, k8s, now, signal),
    ensureLeaf(current?.apiServerKubeletClient, profiles.apiServerKubeletClient(), k8s, now, signal),
    ensureLeaf(current?.frontProxy, profiles.frontProxyClient(), aggregator, now, signal),
  ]);
  return { apiServer: withChain(apiServer, k8s.crt), apiServerKubeletClient, frontProxy };
}

/** withChain appends the CA after the leaf, once, so clients that lack it can still build the chain. */
export const withChain = (pair: CertificateAndKey, ca: string): CertificateAndKey =>
  pair.crt.includes(ca) ? pair : { crt: `${pair.crt}${ca}`, key: pair.key };

/** rootIssuer loads a CA of KubernetesRootSecrets; a control plane node needs both keys. */
export function rootIssuer(ca: CertificateAndKey | null, field: 'issuingCA' | 'aggregatorCA'): Issuer {
  const ref = KubernetesRoot.pointer(KUBERNETES_ROOT_ID);
  if (!ca?.key) throw new SecretsError('missing-secret', ref, `no ${field} key`);
  try {
    return loadIssuer(ca, field);
  } catch (cause) {
    throw new SecretsError('invalid-secret', ref, `${field}: ${(cause as Error).message}`, { cause });
  }
}
