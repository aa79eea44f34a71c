// network.StatusController: NetworkStatus `status` — addresses ready (current node addresses exist),
// connectivity (a default route; Keel has no probes yet), hostname set, and /etc files written — the
// flags etcd, the kubelet and the boot sequence wait on.
import { EtcFileStatus, FILES_NAMESPACE } from '../../resources/files/index.js';
import {
  HOSTNAME_ID,
  HostnameStatus,
  NETWORK_NAMESPACE,
  NETWORK_STATUS_ID,
  NetworkStatus,
  NODE_ADDRESS_CURRENT_ID,
  NodeAddress,
  RouteStatus,
} from '../../resources/network/index.js';
import { defineController, input, output } from '../../src/cosi/controller/index.js';

export interface NetworkStatusOptions {
  /** container mode: resolv.conf is the host's, so only hosts must be written */
  readonly container?: boolean;
}

export function networkStatusController(opts: NetworkStatusOptions = {}) {
  const required = opts.container ? ['hosts'] : ['hosts', 'resolv.conf'];
  return defineController({
    name: 'network.StatusController',
    inputs: [
      input(NodeAddress, { namespace: NETWORK_NAMESPACE, id: NODE_ADDRESS_CURRENT_ID }),
      input(RouteStatus, { namespace: NETWORK_NAMESPACE }),
      input(HostnameStatus, { namespace: NETWORK_NAMESPACE, id: HOSTNAME_ID }),
      input(EtcFileStatus, { namespace: FILES_NAMESPACE }),
    ],
    outputs: [output(NetworkStatus, 'exclusive')],
    async run(rt, { signal }) {
      for await (const _ of rt.events(signal)) {
        const current = await rt.getOrNull(NodeAddress, NODE_ADDRESS_CURRENT_ID, { signal });
        const routes = await rt.list(RouteStatus, { signal });
        const hostname = await rt.getOrNull(HostnameStatus, HOSTNAME_ID, { signal });
        const files = new Set((await rt.list(EtcFileStatus, { signal })).map((f) => f.metadata.id));
        const status = {
          addressReady: (current?.spec.addresses.length ?? 0) > 0,
          connectivityReady: routes.some((r) => r.spec.destination === ''),
          hostnameReady: hostname !== null,
          etcFilesReady: required.every((f) => files.has(f)),
        };
        await rt.modify(NetworkStatus, NETWORK_STATUS_ID, () => status, { signal });
        rt.resetBackoff();
      }
    },
  });
}
