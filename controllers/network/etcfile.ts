// network.EtcFileController: ResolverStatus → EtcFileSpec `resolv.conf`, and the pods' resolv.conf the
// kubelet hands its pods (written directly, as upstream); HostnameStatus, the default node address and
// the config's extra host entries → EtcFileSpec `hosts`. A container node leaves its host's resolv.conf
// alone. (Keel has no host DNS cache yet: both resolv.conf name the resolvers directly.)
import { MACHINE_CONFIG_ID, MachineConfig } from '../../resources/config/machine-config.js';
import { EtcFileSpec } from '../../resources/files/index.js';
import {
  fqdn,
  HOSTNAME_ID,
  HostnameStatus,
  NETWORK_NAMESPACE,
  NODE_ADDRESS_DEFAULT_ID,
  NodeAddress,
  prefixAddress,
  RESOLVER_ID,
  ResolverStatus,
} from '../../resources/network/index.js';
import { accessors } from '../../src/config/index.js';
import { defineController, input, output } from '../../src/cosi/controller/index.js';
import { writeFileAtomicIfChanged } from '../../src/sys/fs/atomic-write.js';
import { configOf } from '../config/config-of.js';
import { renderHosts, renderResolvConf } from './internal/etc-files.js';

export interface NetworkEtcFileOptions {
  /** container mode: resolv.conf stays the host's */
  readonly container?: boolean;
  /**
   * where the pods' resolv.conf goes (upstream's /system/resolved/resolv.conf, the kubelet's resolvConf:
   * without it the kubelet makes no pod sandbox, host-network pods included); none: not written
   */
  readonly podResolvConf?: string;
}

export function networkEtcFileController(opts: NetworkEtcFileOptions = {}) {
  return defineController({
    name: 'network.EtcFileController',
    inputs: [
      input(MachineConfig, { id: MACHINE_CONFIG_ID }),
      input(HostnameStatus, { namespace: NETWORK_NAMESPACE, id: HOSTNAME_ID }),
      input(ResolverStatus, { namespace: NETWORK_NAMESPACE, id: RESOLVER_ID }),
      input(NodeAddress, { namespace: NETWORK_NAMESPACE, id: NODE_ADDRESS_DEFAULT_ID }),
    ],
    outputs: [output(EtcFileSpec, 'shared')],
    async run(rt, { signal }) {
      const text = new TextEncoder();
      for await (const _ of rt.events(signal)) {
        const cfg = await rt.getOrNull(MachineConfig, MACHINE_CONFIG_ID, { signal });
        const hostname = await rt.getOrNull(HostnameStatus, HOSTNAME_ID, { signal });
        const resolver = await rt.getOrNull(ResolverStatus, RESOLVER_ID, { signal });
        const node = await rt.getOrNull(NodeAddress, NODE_ADDRESS_DEFAULT_ID, { signal });
        if (resolver && !opts.container) {
          const contents = text.encode(
            renderResolvConf(resolver.spec.dnsServers, resolver.spec.searchDomains),
          );
          await rt.modify(EtcFileSpec, 'resolv.conf', (s) => ({ ...s, contents, mode: 0o644 }), { signal });
        }
        if (resolver && opts.podResolvConf) {
          const pods = renderResolvConf(resolver.spec.dnsServers, resolver.spec.searchDomains);
          writeFileAtomicIfChanged(opts.podResolvConf, pods, { mode: 0o644, dirMode: 0o755 });
        }
        const nodeIP = node?.spec.addresses[0];
        const hosts = renderHosts({
          nodeIP: nodeIP ? prefixAddress(nodeIP) : undefined,
          hostname: hostname?.spec.hostname,
          fqdn: hostname ? fqdn(hostname.spec) : undefined,
          extraHosts: cfg
            ? accessors(configOf(cfg.spec))
                .staticHosts()
                .map((h) => ({ ip: h.ip, aliases: h.hostnames }))
            : [],
        });
        await rt.modify(EtcFileSpec, 'hosts', (s) => ({ ...s, contents: text.encode(hosts), mode: 0o644 }), {
          signal,
        });
        rt.resetBackoff();
      }
    },
  });
}
