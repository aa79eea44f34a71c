// The DHCPv4 operator: Keel's client (src/sys/dhcp4) for an OperatorSpec, its leases reported as the
// specs upstream's DHCP4 operator writes; a lost lease withdraws them.
import { ClientIdentifier } from '../../resources/network/index.js';
import { startDhcp4 } from '../../src/sys/dhcp4/client.js';
import { dhcp4Specs, NO_SPECS } from './internal/dhcp4-specs.js';
import type { OperatorRun, OperatorStart } from './operator-spec.js';

/** dhcp4Operator starts a client on the spec's link at once. */
export function dhcp4Operator(o: OperatorStart): OperatorRun {
  const { linkName, dhcp4 } = o.spec;
  const id = dhcp4.clientIdentifier;
  const client = startDhcp4({
    link: linkName,
    clientId:
      id.clientIdentifier === ClientIdentifier.None
        ? 'none'
        : id.clientIdentifier === ClientIdentifier.DUID && id.duidRawHex
          ? Buffer.from(id.duidRawHex.replace(/[^0-9a-f]/gi, ''), 'hex')
          : 'mac',
    skipHostnameRequest: dhcp4.skipHostnameRequest,
    onLease: (lease) =>
      o.onSpecs(
        dhcp4Specs(lease, {
          linkName,
          routeMetric: dhcp4.routeMetric,
          useHostname: !dhcp4.skipHostnameRequest,
        }),
      ),
    onLeaseLost: (reason) => {
      o.log(`dhcp4/${linkName}: lease lost (${reason})`);
      o.onSpecs(NO_SPECS);
    },
    log: o.log,
  });
  return { stop: (release) => (release ? client.release() : client.stop()) };
}
