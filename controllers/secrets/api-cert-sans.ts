// secrets.APICertSANsController: CertSANs(secrets/api), the names apid and trustd serve under.
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
  CERT_SAN_API_ID,
  CertSAN,
  type CertSANSpec,
  certSANSpec,
  OS_ROOT_ID,
  OSRoot,
  type OSRootSpec,
} from '../../resources/secrets/index.js';
import { defineController, input, output } from '../../src/cosi/controller/index.js';
import { CERT_NODE_ADDRESS_ID, nodeIdentityInputs } from './internal/node.js';
import { destroyOwned } from './internal/teardown.js';

const NAME = 'secrets.APICertSANsController';

/** APICertSANsController merges machine.certSANs, the node's names and its addresses. */
export const APICertSANsController = defineController({
  name: NAME,
  inputs: [input(OSRoot, { id: OS_ROOT_ID }), ...nodeIdentityInputs],
  outputs: [output(CertSAN, 'shared')],
  async run(rt, { signal }) {
    for await (const _ of rt.events(signal)) {
      const root = await rt.getOrNull(OSRoot, OS_ROOT_ID, { signal });
      if (!root) {
        await destroyOwned(rt, CertSAN, NAME, signal);
        continue;
      }
      // without a name and addresses the set would be wrong, and a wrong set means a re-issue
      const hostname = await rt.getOrNull(HostnameStatus, HOSTNAME_ID, { signal });
      const addresses = await rt.getOrNull(NodeAddress, CERT_NODE_ADDRESS_ID, { signal });
      if (!hostname || !addresses) continue;
      const want = apiCertSANs(root.spec, hostname.spec, addresses.spec);
      await rt.modify(CertSAN, CERT_SAN_API_ID, () => want, { signal });
      rt.resetBackoff();
    }
  },
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
