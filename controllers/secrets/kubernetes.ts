// secrets.KubernetesController: KubernetesSecrets(secrets/k8s-certs), the kubeconfigs of the
// controller-manager, the scheduler and Talos' own admin access.
import { parse, stringify } from 'yaml';
import {
  KUBERNETES_ID,
  KUBERNETES_ROOT_ID,
  Kubernetes,
  type KubernetesCertsSpec,
  KubernetesRoot,
  type KubernetesRootSpec,
} from '../../resources/secrets/index.js';
import { type Controller, type ControllerRuntime, input, output } from '../../src/cosi/controller/index.js';
import { type CertificateAndKey, type Issuer, profiles } from '../../src/pki/index.js';
import { certificateController } from './internal/certificate-controller.js';
import { type SecretsClock, type SecretsControllerOptions, systemSecretsClock } from './internal/clock.js';
import { SecretsError } from './internal/errors.js';
import { ensureLeaf, type LeafTemplate } from './internal/leaf.js';
import { destroyOwned } from './internal/teardown.js';
import { rootIssuer } from './kubernetes-dynamic-certs.js';

const NAME = 'secrets.KubernetesController';

/** newKubernetesController renders the kubeconfigs, re-issuing a client certificate only when due. */
export function newKubernetesController({
  clock = systemSecretsClock,
}: SecretsControllerOptions = {}): Controller {
  return certificateController({
    name: NAME,
    inputs: [input(KubernetesRoot, { id: KUBERNETES_ROOT_ID })],
    outputs: [output(Kubernetes, 'exclusive')],
    clock,
    reconcile,
  });
}

/** KubernetesController runs on wall time. */
export const KubernetesController = newKubernetesController();

async function reconcile(
  rt: ControllerRuntime,
  clock: SecretsClock,
  signal: AbortSignal,
): Promise<(string | undefined)[]> {
  const root = await rt.getOrNull(KubernetesRoot, KUBERNETES_ROOT_ID, { signal });
  if (!root) {
    await destroyOwned(rt, Kubernetes, NAME, signal);
    return [];
  }
  const current = await rt.getOrNull(Kubernetes, KUBERNETES_ID, { signal });
  const next = await kubeconfigs(root.spec, current?.spec, clock.now(), signal);
  await rt.modify(Kubernetes, KUBERNETES_ID, () => next, { signal });
  return Object.values(next).map((k) => kubeconfigClient(k)?.crt);
}

interface KubeconfigPlan {
  readonly field: keyof KubernetesCertsSpec;
  readonly template: LeafTemplate;
  readonly endpoint: 'local' | 'cluster';
  readonly user: string;
  readonly context: string;
}

const TALOS_ADMIN = profiles.kubeconfigClient('talos:admin', 'system:masters');

/** kubeconfigPlans: what each kubeconfig authenticates as and which endpoint it dials. */
export const kubeconfigPlans = (cluster: string): readonly KubeconfigPlan[] => [
  {
    field: 'controllerManagerKubeconfig',
    template: profiles.kubeconfigClient('system:kube-controller-manager', 'system:kube-controller-manager'),
    endpoint: 'local',
    user: 'kube-controller-manager',
    context: 'default',
  },
  {
    field: 'schedulerKubeconfig',
    template: profiles.kubeconfigClient('system:kube-scheduler', 'system:kube-scheduler'),
    endpoint: 'local',
    user: 'kube-scheduler',
    context: 'default',
  },
  {
    field: 'adminKubeconfig',
    template: TALOS_ADMIN,
    endpoint: 'cluster',
    user: `admin@${cluster}`,
    context: `admin@${cluster}`,
  },
  {
    field: 'localhostAdminKubeconfig',
    template: TALOS_ADMIN,
    endpoint: 'local',
    user: `admin@${cluster}`,
    context: `admin@${cluster}`,
  },
];

/** kubeconfigs keeps each client certificate until due and renders every kubeconfig from the root. */
export async function kubeconfigs(
  root: KubernetesRootSpec,
  current: KubernetesCertsSpec | undefined,
  now: Date,
  signal?: AbortSignal,
): Promise<KubernetesCertsSpec> {
  const issuer: Issuer = rootIssuer(root.issuingCA, 'issuingCA');
  const ref = KubernetesRoot.pointer(KUBERNETES_ROOT_ID);
  if (!root.endpoint || !root.localEndpoint)
    throw new SecretsError('missing-secret', ref, 'no API server endpoint');
  const caData = root.acceptedCAs.map((c) => c.crt).join('');
  const out: Partial<Record<keyof KubernetesCertsSpec, string>> = {};
  await Promise.all(
    kubeconfigPlans(root.name).map(async (p) => {
      const was = current?.[p.field] ? kubeconfigClient(current[p.field]) : null;
      const client = await ensureLeaf(was, p.template, issuer, now, signal);
      const server = p.endpoint === 'local' ? root.localEndpoint! : root.endpoint!;
      out[p.field] = renderKubeconfig({
        cluster: root.name,
        server,
        caPEM: caData,
        user: p.user,
        context: p.context,
        client,
      });
    }),
  );
  return {
    schedulerKubeconfig: out.schedulerKubeconfig!,
    controllerManagerKubeconfig: out.controllerManagerKubeconfig!,
    localhostAdminKubeconfig: out.localhostAdminKubeconfig!,
    adminKubeconfig: out.adminKubeconfig!,
  };
}

export interface KubeconfigInput {
  readonly cluster: string;
  readonly server: string;
  readonly caPEM: string;
  readonly user: string;
  readonly context: string;
  readonly client: CertificateAndKey;
}

const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64');

/** renderKubeconfig writes a single-cluster kubeconfig with embedded CA and client credentials. */
export function renderKubeconfig(k: KubeconfigInput): string {
  return stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [
      { name: k.cluster, cluster: { server: k.server, 'certificate-authority-data': b64(k.caPEM) } },
    ],
    users: [
      {
        name: k.user,
        user: { 'client-certificate-data': b64(k.client.crt), 'client-key-data': b64(k.client.key) },
      },
    ],
    contexts: [{ name: k.context, context: { cluster: k.cluster, namespace: 'default', user: k.user } }],
    'current-context': k.context,
  });
}

/** kubeconfigClient reads the client credentials back out of a kubeconfig; null if it has none. */
export function kubeconfigClient(kubeconfig: string): CertificateAndKey | null {
  try {
    const doc = parse(kubeconfig) as { users?: { user?: Record<string, string> }[] } | null;
    const u = doc?.users?.[0]?.user;
    const crt = u?.['client-certificate-data'];
    const key = u?.['client-key-data'];
    if (!crt || !key) return null;
    return {
      crt: Buffer.from(crt, 'base64').toString('utf8'),
      key: Buffer.from(key, 'base64').toString('utf8'),
    };
  } catch {
    return null;
  }
}
