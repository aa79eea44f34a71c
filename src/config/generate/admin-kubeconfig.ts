// The admin kubeconfig a user downloads (talosctl kubeconfig): a fresh client certificate from the cluster
// CA on every call, CN admin and O system:masters, valid for cluster.adminKubeconfig.certLifetime, as
// upstream's kubeconfig.GenerateAdmin. Talos' own admin kubeconfig (KubernetesSecrets) is not handed out.
import { issueCertificate, profiles } from '../../pki/index.js';
import type { Config } from '../container.js';
import { v1alpha1Of } from '../container.js';
import { ConfigError } from '../errors.js';
import { parseDuration } from '../validate/formats.js';
import { renderKubeconfig } from './kubeconfig.js';

/** Upstream constants.KubernetesAdminCertDefaultLifetime: one year. */
export const ADMIN_KUBECONFIG_DEFAULT_LIFETIME_MS = 365 * 24 * 3_600_000;
/** Upstream constants.KubernetesAdminCertCommonName and KubernetesAdminCertOrganization. */
export const ADMIN_KUBECONFIG_COMMON_NAME = 'admin';
export const ADMIN_KUBECONFIG_ORGANIZATION = 'system:masters';

export interface AdminKubeconfigPlan {
  readonly cluster: string;
  readonly endpoint: string;
  /** the issuing CA, PEM */
  readonly issuingCA: { readonly crt: string; readonly key: string };
  /** accepted CAs then the issuing CA, PEM, concatenated: what the client trusts the server with */
  readonly caPEM: string;
  readonly lifetimeMs: number;
}

const pem = (b64: string | undefined) => (b64 ? Buffer.from(b64, 'base64').toString('utf8') : '');
const missing = (path: string, what: string) =>
  new ConfigError('invalid', 'v1alpha1', path, undefined, `${what} is missing`);

/** adminKubeconfigPlan reads what the admin kubeconfig needs from a config; a ConfigError names a gap. */
export function adminKubeconfigPlan(cfg: Config): AdminKubeconfigPlan {
  const c = v1alpha1Of(cfg)?.cluster ?? {};
  const crt = pem(c.ca?.crt);
  const key = pem(c.ca?.key);
  if (!crt || !key) throw missing('cluster.ca', 'the Kubernetes CA certificate or key');
  const endpoint = c.controlPlane?.endpoint;
  if (!endpoint) throw missing('cluster.controlPlane.endpoint', 'the control plane endpoint');
  const accepted = (c.acceptedCAs ?? []).map((a) => pem(a.crt));
  // "0" and unset both mean the default, as upstream's CertLifetime()
  const lifetime =
    parseDuration(c.adminKubeconfig?.certLifetime ?? '0') || ADMIN_KUBECONFIG_DEFAULT_LIFETIME_MS;
  return {
    cluster: c.clusterName ?? '',
    endpoint,
    issuingCA: { crt, key },
    caPEM: [...accepted, crt].join(''),
    lifetimeMs: lifetime,
  };
}

/** mintAdminKubeconfig issues the client certificate and renders the kubeconfig (user and context admin@<cluster>). */
export async function mintAdminKubeconfig(
  plan: AdminKubeconfigPlan,
  opts: { now?: Date; signal?: AbortSignal } = {},
): Promise<string> {
  const client = await issueCertificate(plan.issuingCA, {
    ...profiles.kubeconfigClient(
      ADMIN_KUBECONFIG_COMMON_NAME,
      ADMIN_KUBECONFIG_ORGANIZATION,
      plan.lifetimeMs,
    ),
    ...opts,
  });
  const name = `admin@${plan.cluster}`;
  return renderKubeconfig({
    cluster: plan.cluster,
    server: plan.endpoint,
    caPEM: plan.caPEM,
    user: name,
    context: name,
    client,
  });
}
