// secrets.APICertSANsController: CertSANs(secrets/api), the names apid and trustd serve under.
import {
  fqdn,
  type HostnameStatusSpec,
  type NodeAddressSpec,
  nodeIPs,
} from '../../resources/network/index.js';
import {
  CERT_SAN_API_ID,
  type CertSANSpec,
  certSANSpec,
  OS_ROOT_ID,
  OSRoot,
  type OSRootSpec,
} from '../../resources/secrets/index.js';
import { rootCertSANsController } from './internal/cert-sans-controller.js';

const NAME = 'secrets.APICertSANsController';

/** APICertSANsController merges machine.certSANs, the node's names and its addresses. */
export const APICertSANsController = rootCertSANsController({
  name: NAME,
  root: OSRoot,
  rootId: OS_ROOT_ID,
  outputId: CERT_SAN_API_ID,
  sans: apiCertSANs,
});

/** apiCertSANs: certSANs from the OS root, node IPs, 127.0.0.1, hostname and FQDN. */
export function apiCertSANs(
  root: Pick<OSRootSpec, 'certSANIPs' | 'certSANDNSNames'>,
  hostname: HostnameStatusSpec,
  addresses: NodeAddressSpec,
): CertSANSpec {
  return certSANSpec({
    ips: [...root.certSANIPs, ...nodeIPs(addresses), '127.0.0.1'],
    dnsNames: [...root.certSANDNSNames, hostname.hostname, fqdn(hostname)],
    fqdn: fqdn(hostname),
  });
}
