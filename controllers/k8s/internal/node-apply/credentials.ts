// Whose credentials NodeApply patches the Node with, as upstream's getK8sClient: a control plane mints a
// short-lived admin certificate from the Kubernetes CA and dials its own API server through the local
// endpoint (so it needs no load balancer, and the NodeRestriction admission plugin, which forbids a
// kubelet the node-role label, does not apply); a worker uses the kubelet's own kubeconfig.
import type { KubernetesRootSpec } from '../../../../resources/secrets/index.js';
import { ADMIN_KUBECONFIG_COMMON_NAME, ADMIN_KUBECONFIG_ORGANIZATION } from '../../../../src/config/index.js';
import type { KubeEndpoint } from '../../../../src/k8s/index.js';
import { issueCertificate, profiles, standardKeyLabel } from '../../../../src/pki/index.js';

/** upstream's NewTemporaryClientFromPKI: valid for 10 minutes, from a minute ago (clocks across nodes) */
export const TEMPORARY_ADMIN_VALIDITY_MS = 10 * 60_000;
export const TEMPORARY_ADMIN_BACKDATE_MS = 60_000;

/**
 * temporaryAdmin mints the control plane's credentials; null while the root secrets lack the issuing CA
 * or the local endpoint (a later KubernetesRoot brings them). The server is trusted by the issuing CA's
 * certificate alone, as upstream's.
 */
export async function temporaryAdmin(
  root: KubernetesRootSpec,
  { now = new Date(), signal }: { now?: Date; signal?: AbortSignal } = {},
): Promise<{ endpoint: KubeEndpoint; notAfter: number } | null> {
  if (!root.issuingCA || !root.localEndpoint) return null;
  const client = await issueCertificate(root.issuingCA, {
    ...profiles.kubeconfigClient(
      ADMIN_KUBECONFIG_COMMON_NAME,
      ADMIN_KUBECONFIG_ORGANIZATION,
      TEMPORARY_ADMIN_VALIDITY_MS,
    ),
    backdateMs: TEMPORARY_ADMIN_BACKDATE_MS,
    now,
    ...(signal ? { signal } : {}),
  });
  return {
    // an Ed25519 CA's leaf key comes under Talos' label, which OpenSSL refuses
    endpoint: {
      server: root.localEndpoint,
      ca: root.issuingCA.crt,
      cert: client.crt,
      key: standardKeyLabel(client.key),
    },
    notAfter: now.getTime() + TEMPORARY_ADMIN_VALIDITY_MS,
  };
}
