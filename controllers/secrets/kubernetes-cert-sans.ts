// secrets.KubernetesCertSANsController: CertSANs(secrets/k8s), the names kube-apiserver serves under.
import {
  fqdn,
  HOSTNAME_ID,
  HostnameStatus,
  type HostnameStatusSpec,
  NodeAddress,
  type NodeAddressSpec,
  nodeIPs,
} from '../../resources/network/index.js';
import {
  CERT_SAN_KUBERNETES_ID,
  CertSAN,
  type CertSANSpec,
  certSANSpec,
  KUBERNETES_ROOT_ID,
  KubernetesRoot,
  type KubernetesRootSpec,
} from '../../resources/secrets/index.js';
import { defineController, input, output } from '../../src/cosi/controller/index.js';
import { CERT_NODE_ADDRESS_ID, nodeIdentityInputs } from './internal/node.js';
import { destroyOwned } from './internal/teardown.js';

const NAME = 'secrets.KubernetesCertSANsController';

/** KubernetesCertSANsController merges the endpoint, apiServer.certSANs, service names and node identity. */
export const KubernetesCertSANsController = defineController({
  name: NAME,
  inputs: [input(KubernetesRoot, { id: KUBERNETES_ROOT_ID }), ...nodeIdentityInputs],
  outputs: [output(CertSAN, 'shared')],
  async run(rt, { signal }) {
    for await (const _ of rt.events(signal)) {
      const root = await rt.getOrNull(KubernetesRoot, KUBERNETES_ROOT_ID, { signal });
      if (!root) {
        await destroyOwned(rt, CertSAN, NAME, signal);
        continue;
      }
      const hostname = await rt.getOrNull(HostnameStatus, HOSTNAME_ID, { signal });
      const addresses = await rt.getOrNull(NodeAddress, CERT_NODE_ADDRESS_ID, { signal });
      if (!hostname || !addresses) continue;
      const want = kubernetesCertSANs(root.spec, hostname.spec, addresses.spec);
      await rt.modify(CertSAN, CERT_SAN_KUBERNETES_ID, () => want, { signal });
      rt.resetBackoff();
    }
  },
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
