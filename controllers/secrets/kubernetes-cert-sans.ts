// secrets.KubernetesCertSANsController: CertSANs(secrets/k8s), the names kube-apiserver serves under.
import {
  fqdn,
  type HostnameStatusSpec,
  type NodeAddressSpec,
  nodeIPs,
} from '../../resources/network/index.js';
import {
  CERT_SAN_KUBERNETES_ID,
  type CertSANSpec,
  certSANSpec,
  KUBERNETES_ROOT_ID,
  KubernetesRoot,
  type KubernetesRootSpec,
} from '../../resources/secrets/index.js';
import { rootCertSANsController } from './internal/cert-sans-controller.js';

const NAME = 'secrets.KubernetesCertSANsController';

/** KubernetesCertSANsController merges the endpoint, apiServer.certSANs, service names and node identity. */
export const KubernetesCertSANsController = rootCertSANsController({
  name: NAME,
  root: KubernetesRoot,
  rootId: KUBERNETES_ROOT_ID,
  outputId: CERT_SAN_KUBERNETES_ID,
  sans: kubernetesCertSANs,
});

/** kubernetesCertSANs is the kube-apiserver SAN set of upstream's KubernetesCertSANsController. */
export function kubernetesCertSANs(
  root: Pick<KubernetesRootSpec, 'endpoint' | 'certSANs' | 'dnsDomain' | 'apiServerIPs'>,
  hostname: HostnameStatusSpec,
  addresses: NodeAddressSpec,
): CertSANSpec {
  const endpointHost = root.endpoint ? new URL(root.endpoint).hostname.replace(/^\[(.*)\]$/, '$1') : '';
  return certSANSpec({
    sans: [endpointHost, ...root.certSANs, hostname.hostname, fqdn(hostname)],
    dnsNames: [
      'kubernetes',
      'kubernetes.default',
      'kubernetes.default.svc',
      `kubernetes.default.svc.${root.dnsDomain}`,
      'localhost',
    ],
    ips: [...root.apiServerIPs, ...nodeIPs(addresses), '127.0.0.1'],
  });
}
