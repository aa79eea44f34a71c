// secrets.MaintenanceCertSANsController: CertSANs(secrets/maintenance), the names the maintenance-mode
// API serves under before the node has a config.
import {
  dnsNames,
  HOSTNAME_ID,
  HostnameStatus,
  type HostnameStatusSpec,
  NODE_ADDRESS_ACCUMULATIVE_ID,
  NodeAddress,
  type NodeAddressSpec,
  nodeIPs,
} from '../../resources/network/index.js';
import {
  CERT_SAN_MAINTENANCE_ID,
  CertSAN,
  type CertSANSpec,
  certSANSpec,
} from '../../resources/secrets/index.js';
import { defineController, input, output } from '../../src/cosi/controller/index.js';

/** The CN of the maintenance-mode server certificate (upstream's MaintenanceServiceCommonName). */
export const MAINTENANCE_SERVICE_COMMON_NAME = 'maintenance-service.talos.dev';

/** MaintenanceCertSANsController names every address and, once known, the hostname; no config needed. */
export const MaintenanceCertSANsController = defineController({
  name: 'secrets.MaintenanceCertSANsController',
  // without a config there is no pod network to filter out: the unfiltered view
  inputs: [
    input(HostnameStatus, { id: HOSTNAME_ID }),
    input(NodeAddress, { id: NODE_ADDRESS_ACCUMULATIVE_ID }),
  ],
  outputs: [output(CertSAN, 'shared')],
  async run(rt, { signal }) {
    for await (const _ of rt.events(signal)) {
      const hostname = await rt.getOrNull(HostnameStatus, HOSTNAME_ID, { signal }); // optional: DHCP may not have named us
      const addresses = await rt.getOrNull(NodeAddress, NODE_ADDRESS_ACCUMULATIVE_ID, { signal });
      if (!addresses) continue;
      const want = maintenanceCertSANs(hostname?.spec, addresses.spec);
      await rt.modify(CertSAN, CERT_SAN_MAINTENANCE_ID, () => want, { signal });
      rt.resetBackoff();
    }
  },
});

/** maintenanceCertSANs: node IPs, both loopbacks, the host's DNS names, and the fixed service CN. */
export function maintenanceCertSANs(
  hostname: HostnameStatusSpec | undefined,
  addresses: NodeAddressSpec,
): CertSANSpec {
  return certSANSpec({
    ips: [...nodeIPs(addresses), '127.0.0.1', '::1'],
    dnsNames: hostname ? dnsNames(hostname) : [],
    fqdn: MAINTENANCE_SERVICE_COMMON_NAME,
  });
}
